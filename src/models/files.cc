// Reading data files whole, and the verified model-file loader (models.h).
#include <openssl/evp.h>

#include <fstream>
#include <sstream>

#include "revsum/models.h"

namespace revsum {

std::optional<std::string> ReadWholeFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(buffer).str();
}

std::string Sha256Digest(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1) {
    throw ModelsError("OpenSSL EVP sha256 failed");
  }
  return std::string(reinterpret_cast<const char*>(md), len);
}

std::string Sha256Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : Sha256Digest(bytes)) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

std::string ReadVerifiedModelFile(const std::filesystem::path& path, std::string_view expected,
                                  const std::filesystem::path& manifest,
                                  std::string_view how_to_fix) {
  const std::string fix = how_to_fix.empty() ? "" : "; " + std::string(how_to_fix);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw ModelsError("model file " + path.string() + " is missing" + fix);
  }
  std::optional<std::string> bytes = ReadWholeFile(path);
  if (!bytes) throw ModelsError("model file " + path.string() + " cannot be read" + fix);
  const std::string got = Sha256Hex(*bytes);
  if (got != expected) {
    throw ModelsError("model file " + path.string() + " is corrupt or was modified (" +
                      std::to_string(bytes->size()) + " bytes, sha256 " + got + ", expected " +
                      std::string(expected) + " from " + manifest.string() + ")" + fix);
  }
  return std::move(*bytes);
}

}  // namespace revsum

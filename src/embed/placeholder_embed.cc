// Placeholder until the embed stage lands; keeps the library target non-empty.
namespace revsum {}

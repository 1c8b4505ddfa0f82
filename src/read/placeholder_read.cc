// Placeholder until the read stage lands; keeps the library target non-empty.
namespace revsum {}

// Placeholder until the store stage lands; keeps the library target non-empty.
namespace revsum {}

// Placeholder until the eval stage lands; keeps the library target non-empty.
namespace revsum {}

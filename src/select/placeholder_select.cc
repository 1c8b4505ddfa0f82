// Placeholder until the select stage lands; keeps the library target non-empty.
namespace revsum {}

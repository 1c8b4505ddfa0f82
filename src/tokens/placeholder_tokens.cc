// Placeholder until the tokens stage lands; keeps the library target non-empty.
namespace revsum {}

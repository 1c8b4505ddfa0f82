// Placeholder until the text stage lands; keeps the library target non-empty.
namespace revsum {}

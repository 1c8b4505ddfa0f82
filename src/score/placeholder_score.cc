// Placeholder until the score stage lands; keeps the library target non-empty.
namespace revsum {}

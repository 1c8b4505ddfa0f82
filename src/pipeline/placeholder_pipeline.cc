// Placeholder until the pipeline stage lands; keeps the library target non-empty.
namespace revsum {}

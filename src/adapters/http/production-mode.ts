// Elysia reads NODE_ENV once, when it is first loaded. In development mode it writes the whole request body
// into every validation error, at a cost that grows with the square of its nesting, and Bun serves its own
// error pages. This service always runs as in production, whatever NODE_ENV says, so this module is
// imported before anything that loads Elysia (first in app.ts; the test preload in bunfig.toml).
process.env.NODE_ENV = 'production'

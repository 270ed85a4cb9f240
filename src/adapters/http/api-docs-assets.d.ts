// Files of the API reference page, imported `with { type: 'file' }`: the bundler answers their path (inside the binary once compiled).
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}

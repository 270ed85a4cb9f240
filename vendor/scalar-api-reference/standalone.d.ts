// Imported `with { type: 'file' }`: the path of the bundled file (inside the binary once compiled).
declare const path: string
export default path

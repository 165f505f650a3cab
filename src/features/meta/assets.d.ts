/** Files embedded into the binary with `import x from '...' with { type: 'file' }` (x is their path). */
declare module '*/standalone.js' {
  const path: string;
  export default path;
}

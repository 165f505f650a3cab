/** The studio bundle embedded into the binary with `import x from '...' with { type: 'file' }` (x is its path). */
declare module '*/studio/prebuilt/bundle.txt' { const path: string; export default path; }

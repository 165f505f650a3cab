/** Player files embedded into the binary with `import x from '...' with { type: 'file' }` (x is their path). */
declare module '*/hls.min.mjs' { const path: string; export default path; }
declare module '*/dash.all.min.js' { const path: string; export default path; }
declare module '*/prebuilt/embed.js' { const path: string; export default path; }
declare module '*/vast-client.min.js' { const path: string; export default path; }

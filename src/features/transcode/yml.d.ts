declare module '*.yml' {
  const text: string;
  export default text;
}

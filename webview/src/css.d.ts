/** esbuild's text loader: importing a .css file yields its contents as a string. */
declare module '*.css' {
  const text: string;
  export default text;
}

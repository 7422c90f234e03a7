// esbuild turns `import './main.css'` into out/webview/main.css.
declare module '*.css';

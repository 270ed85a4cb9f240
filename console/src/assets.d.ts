// Stylesheets imported for the bundler, which emits them beside the script.
declare module '*.css'

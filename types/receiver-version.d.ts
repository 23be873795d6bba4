// /receiver/version.js is not a file: the host makes it from tilewall.__version__
// (app.py, receiver_version). This is its shape, for TypeScript's checker.
export declare const VERSION: string;

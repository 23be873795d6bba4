// The interface under /api, from the browser: same origin, same JSESSIONID cookie.
// Every failure becomes an ApiError whose message a person can read; a 401 hands the
// operator to the login page and back.

export const BASE = "/api";
export const CLIENT_HEADER = "X-Tilewall-Client";

export class ApiError extends Error {
  constructor(status, message, { method = "", path = "" } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.method = method;
    this.path = path;
    /** The host answered 404/405 without a message of its own: it lacks the operation. */
    this.notOffered = false;
    /** The body was the host's JSON error, so `message` is the host's own words. */
    this.hostShaped = false;
  }
  /** The host does not offer this operation (yet). */
  get missing() {
    return this.status === 404 && this.notOffered === true;
  }
}

/** @type {(error: ApiError) => void} */
let unauthorized = () => {};
/**
 * Called with the ApiError when the session is missing or expired.
 * @param {(error: ApiError) => void} fn
 */
export function onUnauthorized(fn) {
  unauthorized = fn;
}

function query(params) {
  if (!params) return "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** Encode each segment of a path, keep the slashes (media names have folders). */
export function encodePath(name) {
  return String(name)
    .split("/")
    .filter((p) => p !== "")
    .map(encodeURIComponent)
    .join("/");
}

export function seg(value) {
  return encodeURIComponent(String(value));
}

const REASONS = {
  400: "The host did not accept the request",
  401: "You are not logged in",
  403: "The licence does not allow this",
  404: "Not found",
  405: "The host does not allow this operation",
  409: "Not possible in the current state",
  413: "Too large for the host",
  500: "The host could not do it",
  502: "The host is not reachable",
  503: "A device the host needs cannot be reached",
};

/** A readable message from a failed response: the host's {status, message}, or a
 *  sentence about the status when the body is not the host's JSON (never raw JSON). */
async function failure(response, method, path) {
  const status = response.status;
  let message = "";
  let hostShaped = false;
  const type = response.headers.get("content-type") || "";
  try {
    if (type.includes("json")) {
      const body = await response.json();
      if (body && typeof body.message === "string") {
        message = body.message;
        hostShaped = true;
      } else if (body && typeof body.detail === "string") {
        message = body.detail;
        hostShaped = true;
      }
    } else {
      const text = (await response.text()).trim();
      if (text && !text.startsWith("<") && text.length < 300) message = text;
    }
  } catch {
    /* unreadable body: the status says enough */
  }
  const error = new ApiError(status, "", { method, path });
  if (!message) {
    if (status === 404 || status === 405) {
      error.notOffered = true;
      message = `This host does not offer ${method} ${BASE}${path} yet.`;
    } else {
      message = `${REASONS[status] || "The request failed"} (HTTP ${status}).`;
    }
  } else if (status === 404 && /^not found$/i.test(message)) {
    error.notOffered = true;
    message = `This host does not offer ${method} ${BASE}${path} yet.`;
  }
  error.message = message;
  error.hostShaped = hostShaped;
  return error;
}

/**
 * @typedef {object} CallOptions
 * @property {Record<string, unknown>} [query] the query string's parameters (empty ones left out)
 * @property {unknown} [json] a body sent as JSON
 * @property {BodyInit} [body] a raw body
 * @property {boolean} [auth] false for the login call: a 401 there is not a lost session
 * @property {Record<string, string>} [headers]
 * @property {(response: Response) => void} [onResponse] called with a successful Response
 *   before its body is read, e.g. for headers
 */

/**
 * Call the interface. `path` is relative to /api.
 * Resolves with parsed JSON, text, or null (empty body).
 * @param {string} method
 * @param {string} path
 * @param {CallOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(method, path, { query: params, json, body, auth = true, headers, onResponse } = {}) {
  const url = `${BASE}${path}${query(params)}`;
  // the host records the console as what triggered the plays its requests cause
  /** @type {Record<string, string>} */
  const sent = { Accept: "application/json", [CLIENT_HEADER]: "console", ...headers };
  /** @type {RequestInit} */
  const init = { method, credentials: "same-origin", headers: sent };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    sent["Content-Type"] = "application/json";
  } else if (body !== undefined) {
    init.body = body;
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (e) {
    throw new ApiError(0, "Cannot reach the host. Check the network connection; the console retries by itself.", {
      method,
      path,
    });
  }
  if (!response.ok) {
    const error = await failure(response, method, path);
    if (response.status === 401 && auth) unauthorized(error);
    throw error;
  }
  if (onResponse) onResponse(response);
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  const text = await response.text();
  if (!text) return null;
  if (type.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** @type {(path: string, opts?: CallOptions) => Promise<any>} */
export const get = (path, opts) => api("GET", path, opts);
/** @type {(path: string, json?: unknown, opts?: CallOptions) => Promise<any>} */
export const put = (path, json, opts = {}) => api("PUT", path, { ...opts, json });
/** @type {(path: string, json?: unknown, opts?: CallOptions) => Promise<any>} */
export const post = (path, json, opts = {}) => api("POST", path, { ...opts, json });
/** @type {(path: string, opts?: CallOptions) => Promise<any>} */
export const del = (path, opts) => api("DELETE", path, opts);

/**
 * Upload a file to the media library with PUT /api/media/<name>, the file as the body.
 * onProgress(fraction) is called as the upload goes. Resolves with the host's file entry.
 */
/**
 * @param {string} name
 * @param {File} file
 * @param {(fraction: number) => void} [onProgress]
 * @returns {Promise<any>}
 */
export function uploadMedia(name, file, onProgress = () => {}) {
  const path = `/media/${encodePath(name)}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", `${BASE}${path}`);
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.setRequestHeader(CLIENT_HEADER, "console");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "The upload was interrupted: the host is not reachable.", { method: "PUT", path }));
    xhr.onabort = () => reject(new ApiError(0, "The upload was cancelled.", { method: "PUT", path }));
    xhr.onload = async () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        try {
          resolve(JSON.parse(xhr.responseText));
        } catch {
          resolve(null);
        }
        return;
      }
      const response = new Response(xhr.responseText, {
        status: xhr.status,
        headers: { "content-type": xhr.getResponseHeader("content-type") || "" },
      });
      const error = await failure(response, "PUT", path);
      if (xhr.status === 401) unauthorized(error);
      reject(error);
    };
    xhr.send(file);
  });
}

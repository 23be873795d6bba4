// The host as the console last read it (live.js reads it, targets.js folds it): the
// interface's answers and the render descriptions, and whether each target's media
// position moved between two reads.

// The interface's answers as the console reads them (docs/SPEC): the fields named here
// are the ones it uses; the rest pass through.
/** @typedef {{displayId: number, isOnline?: boolean, playingSourceId?: string, isShowingWelcomeScreen?: boolean, [field: string]: any}} Display */
/** @typedef {{zoneId: string, zoneName: string, zoneDisplays?: {displayId: number, isSelected: boolean}[], playingSourceId?: string, isShowingWelcomeScreen?: boolean, isPlaying?: boolean, videowallId?: string, [field: string]: any}} Zone */
/** @typedef {{id: string, name: string, displayIds: number[], isPlaying: boolean, playingSourceId: string, isShowingWelcomeScreen: boolean, [field: string]: any}} Mirror */
/** @typedef {{id: string, name: string, monitors?: {displayId: number, [field: string]: any}[], [field: string]: any}} Wall */
/** @typedef {{sourceId: string, sourceName: string, sourceType: string, [field: string]: any}} Source */
/** @typedef {{displayId: number, name?: string, devices?: {type: string, model?: string}[], [field: string]: any}} Station */
/** @typedef {{filename: string, total: number, current: number, at: number}} MediaPosition */
/** @typedef {{description: any, sig: string, at: number}} RenderEntry */

export const live = {
  /** @type {Display[]} */
  displays: [],
  /** @type {Zone[]} */
  zones: [],
  /** @type {Mirror[]} */
  mirrors: [],
  /** @type {Wall[]} */
  walls: [],
  /** @type {Source[]} */
  sources: [],
  /** @type {Station[]} */
  network: [],
  /** @type {Map<string, MediaPosition>} target key -> where its media is */
  media: new Map(),
  /** @type {Map<string, any>} zone name -> current layout (control room), when the host offers it */
  layouts: new Map(),
  /** @type {Map<number, RenderEntry>} displayId -> what its receiver is told to show */
  renders: new Map(),
  rendersMissing: false, // the host does not offer render descriptions
  /** @type {import("./api.js").ApiError | null} */
  error: null,
  lastOk: 0,
  loaded: false,
  following: false, // the host's stream of changes is open
};

/** @type {Map<string, {current: number, at: number, advancing: boolean | null}>} target key -> its media position when last compared, and whether it had moved (null: not compared yet) */
export const progress = new Map();

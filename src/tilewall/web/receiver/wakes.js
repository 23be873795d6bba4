// Ticks on host instants: the start of a cued video, a turn of the rate bias, a change
// of item (docs/protocol.md, "Playing to the timeline").
//
// Never early: setTimeout truncates a fractional delay, and a tick a fraction of a ms
// before its instant finds it still ahead. Never lost: an instant that passed while the
// caller worked (a busy page) ticks at once. Either way the next tick would be the
// receiver's regular one (every 100 ms): a start or a turn made that late.

const SLACK_MS = 5; // an instant passed this recently still gets its tick
const AHEAD_MAX_MS = 60000; // farther instants wait for a later wake

/** wake(at) ticks once at host instant `at` (by `clock()`); clear() drops every wake. */
export function wakes(clock, tick) {
  const timers = new Map(); // instant (ms, rounded) -> timer: one tick per instant
  return {
    wake(at) {
      const key = Math.round(at);
      const delay = at - clock();
      if (delay <= -SLACK_MS || delay > AHEAD_MAX_MS || timers.has(key)) return;
      const fire = () => {
        timers.delete(key);
        tick();
      };
      timers.set(key, setTimeout(fire, Math.max(Math.ceil(delay), 0)));
    },
    clear() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

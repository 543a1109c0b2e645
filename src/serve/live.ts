// What the server answers from: the current Release (swapped whole at each refresh) and how refreshing goes.
import { getHeapStatistics } from "node:v8";
import type { ServerStatus } from "../model/server-status.js";
import type { Release } from "../publish/release.js";
import { type FeedHealth, type FeedLimits, feedStatus } from "./feed-health.js";

export interface RefreshOutcome {
  at: Date;
  ok: boolean;
  /** What went wrong, for operators (already logged once). */
  error: string | null;
}

export interface Live {
  /** Replaced in one assignment: a request reads it once and answers from that release only. */
  release: Release;
  refreshSeconds: number;
  nextRefreshAt: Date | null;
  lastRefresh: RefreshOutcome | null;
  /** With `serve --out`: the release the tree on disk holds whole (null while it is mixed), and why not the latest. */
  tree?: { path: string; release: string | null; error: string | null };
  /**
   * The static source published: its folder, when its data last changed, and why its latest edit
   * is not published (null: it is, or none came).
   */
  staticSource?: { path: string; updatedAt: Date; error: string | null };
  /**
   * The tree a front server (nginx) answers from, once one says it (see front-tree.ts), and
   * whether it is the one this server keeps (`--out`).
   */
  front?: { tree: string; kept: boolean };
  /** The station data behind the release: its freshness, and stations the feed left out. */
  feed?: FeedHealth;
  feedLimits?: FeedLimits;
  /** Since when the keys file cannot be read (see KeyRing.failingSince); absent: always read well. */
  keysFailingSince?: () => Date | null;
  /** How many keys are accepted now (see KeyRing.activeCount); absent: not counted. */
  keysActive?: () => number;
}

/**
 * The operator's view, served at /status without a key. `ok` is false when the last refresh
 * failed, when the refresh due has not ended a whole period after its time (one is stuck), when
 * too many stations have not been reported for too long (a stalled feed), when the keys file
 * cannot be read (revocations no longer take effect), or when no key is accepted (a keys file
 * missing, or every key revoked: every keyed request is refused), or when a front server answers
 * from a tree this server does not keep (its station answers stay as they were last written).
 * Without `details`, for a client other than the operators (status-details.ts), the paths, the
 * errors (they name files), the keys and the memory are left out: the same `ok`, explained by the
 * rest of the document or the server's log.
 */
export function statusOf(live: Live, now: Date, details = true): ServerStatus {
  const { release } = live;
  const feed = live.feed && live.feedLimits ? feedStatus(live.feed, live.feedLimits, now) : null;
  const due = live.nextRefreshAt?.getTime() ?? now.getTime();
  const lateSeconds = Math.max(0, Math.round((now.getTime() - due) / 1000));
  const keysFailing = live.keysFailingSince?.() ?? null;
  const activeKeys = live.keysActive?.() ?? null;
  const keysOk = keysFailing === null && activeKeys !== 0;
  const last = live.lastRefresh;
  const health = {
    ok:
      (last?.ok ?? true) &&
      (feed?.ok ?? true) &&
      lateSeconds <= live.refreshSeconds &&
      keysOk &&
      (live.front?.kept ?? true),
    release: release.id,
    generatedAt: release.generatedAt.toISOString(),
    dataAgeSeconds: Math.max(0, Math.round((now.getTime() - release.generatedAt.getTime()) / 1000)),
    refreshSeconds: live.refreshSeconds,
    nextRefreshAt: live.nextRefreshAt?.toISOString() ?? null,
    /** How long the refresh due has been running past its time (0 on time). */
    refreshLateSeconds: lateSeconds,
  };
  if (!details) {
    return {
      ...health,
      lastRefresh: last && { at: last.at.toISOString(), ok: last.ok },
      counts: release.counts,
      feed,
      keys: { ok: keysOk },
    };
  }
  return {
    ...health,
    lastRefresh: last && { ...last, at: last.at.toISOString() },
    counts: release.counts,
    staticSource: live.staticSource
      ? { ...live.staticSource, updatedAt: live.staticSource.updatedAt.toISOString() }
      : null,
    tree: live.tree ?? null,
    front: live.front ?? null,
    feed,
    keys: {
      ok: keysOk,
      failingSince: keysFailing?.toISOString() ?? null,
      ...(activeKeys === null ? {} : { activeKeys }),
    },
    memory: memoryStatus(),
  };
}

/**
 * The process's resident memory, and the heap of the thread that serves against its limit: near
 * the limit V8 collects at every turn and refreshes slow down (see heap-room.ts).
 */
function memoryStatus() {
  const heap = getHeapStatistics();
  return {
    rssBytes: process.memoryUsage.rss(),
    heapUsedBytes: heap.used_heap_size,
    heapLimitBytes: heap.heap_size_limit,
  };
}

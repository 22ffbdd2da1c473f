package dev.speechscale.simulator;

import java.util.Arrays;

/**
 * The router's view: in-service instances grouped by how many requests each holds, so the least
 * loaded is found in O(1) amortised instead of by a scan of the fleet on every request.
 *
 * <p>Each bucket is a doubly linked list of instance ids. An instance whose count changes moves to
 * the tail of its new bucket and the router takes the head of the lowest non-empty bucket, so among
 * equally loaded instances the one that has waited longest goes first: the round-robin tie-break of
 * the local platform's router, up to the order in which ties formed.
 */
final class LorBuckets {
  private int[] head = new int[16];
  private int[] tail = new int[16];
  private int[] next = new int[16];
  private int[] prev = new int[16];
  private int lowest;
  private int members;

  LorBuckets() {
    Arrays.fill(head, -1);
    Arrays.fill(tail, -1);
  }

  int size() {
    return members;
  }

  /** Adds instance {@code id} holding {@code count} requests. */
  void add(int id, int count) {
    ensureInstance(id);
    ensureBucket(count);
    next[id] = -1;
    prev[id] = tail[count];
    if (tail[count] >= 0) {
      next[tail[count]] = id;
    } else {
      head[count] = id;
    }
    tail[count] = id;
    members++;
    if (count < lowest) {
      lowest = count;
    }
  }

  /** Removes instance {@code id}, which holds {@code count} requests. */
  void remove(int id, int count) {
    int p = prev[id];
    int n = next[id];
    if (p >= 0) {
      next[p] = n;
    } else {
      head[count] = n;
    }
    if (n >= 0) {
      prev[n] = p;
    } else {
      tail[count] = p;
    }
    members--;
  }

  void move(int id, int from, int to) {
    remove(id, from);
    add(id, to);
  }

  /** The least loaded instance, or -1 when none is in service. */
  int least() {
    if (members == 0) {
      return -1;
    }
    while (head[lowest] < 0) {
      lowest++;
    }
    return head[lowest];
  }

  private void ensureInstance(int id) {
    if (id >= next.length) {
      int n = Math.max(id + 1, next.length * 2);
      next = Arrays.copyOf(next, n);
      prev = Arrays.copyOf(prev, n);
    }
  }

  private void ensureBucket(int count) {
    if (count >= head.length) {
      int old = head.length;
      int n = Math.max(count + 1, old * 2);
      head = Arrays.copyOf(head, n);
      tail = Arrays.copyOf(tail, n);
      Arrays.fill(head, old, n, -1);
      Arrays.fill(tail, old, n, -1);
    }
  }
}

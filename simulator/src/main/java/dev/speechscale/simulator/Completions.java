package dev.speechscale.simulator;

import java.util.Arrays;

/**
 * When each request in flight ends, per instance, and which instance has the next end.
 *
 * <p>Each instance keeps a binary min-heap of its requests' end times (for a one-slot FIFO instance
 * ends arrive in order, so an insert costs one comparison); an indexed min-heap over instances,
 * keyed by each instance's earliest end, lets the run retire every request that ended before an
 * arrival without visiting idle instances. Memory is the requests in flight, bounded by the fleet
 * times the gate's depth, never by the length of the trace.
 */
final class Completions {
  private double[][] ends = new double[16][];
  private int[] sizes = new int[16];
  private int[] heap = new int[16];
  private double[] keys = new double[16];
  private int[] position = new int[16];
  private int heapSize;

  Completions() {
    Arrays.fill(position, -1);
  }

  /** Readies instance {@code id} (new or reused) with nothing in flight. */
  void reset(int id) {
    if (id >= sizes.length) {
      int n = Math.max(id + 1, sizes.length * 2);
      ends = Arrays.copyOf(ends, n);
      sizes = Arrays.copyOf(sizes, n);
      int old = position.length;
      position = Arrays.copyOf(position, n);
      Arrays.fill(position, old, n, -1);
      heap = Arrays.copyOf(heap, n);
      keys = Arrays.copyOf(keys, n);
    }
    if (ends[id] == null) {
      ends[id] = new double[8];
    }
    if (position[id] >= 0) {
      removeAt(position[id]);
    }
    sizes[id] = 0;
  }

  int inFlight(int id) {
    return sizes[id];
  }

  /** The earliest end over all instances; +∞ when nothing is in flight. */
  double nextEnd() {
    return heapSize == 0 ? Double.POSITIVE_INFINITY : keys[0];
  }

  /** The instance whose request ends next (call only when {@link #nextEnd()} is finite). */
  int nextInstance() {
    return heap[0];
  }

  /** Adds a request ending at {@code end} to instance {@code id}. */
  void add(int id, double end) {
    double[] h = ends[id];
    int n = sizes[id];
    if (n == h.length) {
      h = Arrays.copyOf(h, n * 2);
      ends[id] = h;
    }
    int i = n;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (h[parent] <= end) {
        break;
      }
      h[i] = h[parent];
      i = parent;
    }
    h[i] = end;
    sizes[id] = n + 1;
    if (n == 0) {
      insert(id);
    } else if (i == 0) {
      siftUp(position[id]);
    }
  }

  /** Retires the earliest request of the instance at the top of the heap. */
  void retireNext() {
    int id = heap[0];
    double[] h = ends[id];
    int n = sizes[id] - 1;
    sizes[id] = n;
    if (n == 0) {
      removeAt(0);
      return;
    }
    double last = h[n];
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && h[child + 1] < h[child]) {
        child++;
      }
      if (h[child] >= last) {
        break;
      }
      h[i] = h[child];
      i = child;
    }
    h[i] = last;
    siftDown(0);
  }

  private void insert(int id) {
    heap[heapSize] = id;
    position[id] = heapSize;
    heapSize++;
    siftUp(heapSize - 1);
  }

  private void removeAt(int slot) {
    int id = heap[slot];
    position[id] = -1;
    heapSize--;
    if (slot == heapSize) {
      return;
    }
    int moved = heap[heapSize];
    heap[slot] = moved;
    position[moved] = slot;
    siftDown(slot);
    if (position[moved] == slot) {
      siftUp(slot);
    }
  }

  private void siftUp(int slot) {
    int id = heap[slot];
    double k = ends[id][0];
    while (slot > 0) {
      int parent = (slot - 1) >>> 1;
      if (keys[parent] <= k) {
        break;
      }
      heap[slot] = heap[parent];
      keys[slot] = keys[parent];
      position[heap[slot]] = slot;
      slot = parent;
    }
    heap[slot] = id;
    keys[slot] = k;
    position[id] = slot;
  }

  private void siftDown(int slot) {
    int id = heap[slot];
    double k = ends[id][0];
    while (true) {
      int child = 2 * slot + 1;
      if (child >= heapSize) {
        break;
      }
      if (child + 1 < heapSize && keys[child + 1] < keys[child]) {
        child++;
      }
      if (keys[child] >= k) {
        break;
      }
      heap[slot] = heap[child];
      keys[slot] = keys[child];
      position[heap[slot]] = slot;
      slot = child;
    }
    heap[slot] = id;
    keys[slot] = k;
    position[id] = slot;
  }
}

/**
 * How often each hashed feature occurs in one text: an open-addressing table of 32-bit keys that
 * is reused from text to text, so that counting the thousands of n-grams of a chunk allocates
 * nothing. Clearing is O(1): a slot belongs to the current text only when its stamp is the
 * current round.
 */
export class FeatureCounts {
  /** Entries in insertion order, read back by index after counting. */
  keys: Int32Array;
  counts: Float64Array;
  weights: Float64Array;
  size = 0;

  #mask: number;
  #slots: Int32Array;
  #stamps: Uint32Array;
  #round = 1;

  constructor(initialCapacity = 4096) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#mask = capacity - 1;
    this.#slots = new Int32Array(capacity);
    this.#stamps = new Uint32Array(capacity);
    // The table is kept at most half full, so half as many entries as slots.
    this.keys = new Int32Array(capacity / 2);
    this.counts = new Float64Array(capacity / 2);
    this.weights = new Float64Array(capacity / 2);
  }

  clear(): void {
    this.size = 0;
    if (++this.#round === 0xffffffff) {
      this.#stamps.fill(0);
      this.#round = 1;
    }
  }

  /** Counts one occurrence of `key`; `weight` is the feature's weight, fixed by its first occurrence. */
  add(key: number, weight: number): void {
    const stamps = this.#stamps;
    const slots = this.#slots;
    const mask = this.#mask;
    let slot = key & mask;
    while (stamps[slot] === this.#round) {
      const entry = slots[slot]!;
      if (this.keys[entry] === key) {
        this.counts[entry]!++;
        return;
      }
      slot = (slot + 1) & mask;
    }
    if (this.size === this.keys.length) {
      this.#grow();
      this.add(key, weight);
      return;
    }
    stamps[slot] = this.#round;
    slots[slot] = this.size;
    this.keys[this.size] = key;
    this.counts[this.size] = 1;
    this.weights[this.size] = weight;
    this.size++;
  }

  #grow(): void {
    const capacity = this.#slots.length * 2;
    this.#mask = capacity - 1;
    this.#slots = new Int32Array(capacity);
    this.#stamps = new Uint32Array(capacity);
    this.#round = 1;
    this.keys = copyInto(new Int32Array(capacity / 2), this.keys);
    this.counts = copyInto(new Float64Array(capacity / 2), this.counts);
    this.weights = copyInto(new Float64Array(capacity / 2), this.weights);
    for (let entry = 0; entry < this.size; entry++) {
      let slot = this.keys[entry]! & this.#mask;
      while (this.#stamps[slot] === 1) slot = (slot + 1) & this.#mask;
      this.#stamps[slot] = 1;
      this.#slots[slot] = entry;
    }
  }
}

function copyInto<T extends Int32Array | Float64Array>(target: T, source: T): T {
  target.set(source);
  return target;
}

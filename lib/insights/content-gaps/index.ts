export { createAddressedMarks, type AddressedMarks, type AddressedInput } from './addressed.js';
export { createGapsClusteringClient, type GapsClusteringClient } from './clustering-client.js';
export { createGapRecorder, gapIdOf, type RecordGap } from './recorder.js';
export {
  createClusterResults,
  type ClusterResultsReader,
  type ClusterView,
  type ClusterList,
  type DayRange,
  type GapFilter,
} from './results.js';
export { createContentGapStore, contentGapKeys, type ContentGapStore } from './store.js';
export type { GapInput, GapOwner, ClosestSource, GapReason } from './types.js';
export { spaceKey } from './vectors.js';

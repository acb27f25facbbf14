/**
 * Kafka's groupSegmentsBySize: consecutive segments are cleaned into one new segment while the
 * group's log bytes stay within segment.bytes and its offsets within an int32 of the first base
 * offset (index entries store relative offsets as int32). The cleaned segment is at most as
 * large as the group, so it never breaks segment.bytes. Pure.
 */

const INT32_MAX = 0x7fffffff;

export interface GroupableSegment {
  readonly baseOffset: number;
  readonly nextOffset: number;
  readonly sizeInBytes: number;
}

/** Splits `segments` (in offset order) into groups of consecutive segments. */
export function groupSegmentsBySize<S extends GroupableSegment>(
  segments: readonly S[],
  segmentBytesMax: number,
): S[][] {
  const groups: S[][] = [];
  let group: S[] = [];
  let groupBytes = 0;
  for (const segment of segments) {
    const first = group[0];
    const fitsBytes = groupBytes + segment.sizeInBytes <= segmentBytesMax;
    const lastOffset = Math.max(segment.baseOffset, segment.nextOffset - 1);
    const fitsOffsets = first === undefined || lastOffset - first.baseOffset <= INT32_MAX;
    if (first !== undefined && !(fitsBytes && fitsOffsets)) {
      groups.push(group);
      group = [];
      groupBytes = 0;
    }
    group.push(segment);
    groupBytes += segment.sizeInBytes;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

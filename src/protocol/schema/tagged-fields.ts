import { ByteReader } from "../codec/reader.js";
import { ByteWriter } from "../codec/writer.js";
import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import type { DefaultTest } from "./defaults.js";
import type { ReadOp, WriteOp } from "./primitive-codec.js";
import type { TaggedField } from "./types.js";

/** A known tagged field of a struct in one version. */
export interface TaggedFieldOps {
  readonly tag: number;
  readonly name: string;
  readonly read: ReadOp;
  readonly write: WriteOp;
  readonly isDefault: DefaultTest;
}

/**
 * Reads a tagged-field section (KIP-482) into `target`: known tags by name, unknown ones as raw
 * bytes in `unknownTaggedFields`. A known field must fill exactly the size its header declares.
 */
export function readTaggedFields(
  reader: ByteReader,
  target: Record<string, unknown>,
  known: ReadonlyMap<number, TaggedFieldOps>,
): void {
  const count = reader.unsignedVarint();
  let unknown: TaggedField[] | undefined;
  for (let i = 0; i < count; i++) {
    const tag = reader.unsignedVarint();
    const size = reader.unsignedVarint();
    const start = reader.position;
    reader.need(size);
    const field = known.get(tag);
    if (field === undefined) {
      (unknown ??= []).push({ tag, data: reader.raw(size) });
      continue;
    }
    const section = new ByteReader(reader.bytes, start, start + size);
    target[field.name] = field.read(section);
    if (section.position !== section.end) {
      throw new DecodeError("invalid", `tagged field ${tag} is shorter than its size`, start);
    }
    reader.position = start + size;
  }
  if (unknown !== undefined) target["unknownTaggedFields"] = unknown;
}

type Entry = { readonly tag: number; readonly data: Uint8Array };

/** Encodes the known tagged fields whose values differ from their defaults. */
function knownEntries(value: Record<string, unknown>, known: readonly TaggedFieldOps[]): Entry[] {
  const entries: Entry[] = [];
  for (const field of known) {
    const fieldValue = value[field.name];
    if (field.isDefault(fieldValue)) continue;
    const scratch = new ByteWriter(64);
    field.write(scratch, fieldValue);
    entries.push({ tag: field.tag, data: scratch.finish() });
  }
  return entries;
}

/**
 * Writes a tagged-field section: known fields that differ from their defaults and the preserved
 * unknown ones, merged in ascending tag order as Kafka writes them. `known` is sorted by tag.
 */
export function writeTaggedFields(
  writer: ByteWriter,
  value: Record<string, unknown>,
  known: readonly TaggedFieldOps[],
): void {
  const unknown = value["unknownTaggedFields"] as readonly TaggedField[] | undefined;
  const entries = known.length === 0 ? [] : knownEntries(value, known);
  if (unknown !== undefined && unknown.length > 0) {
    entries.push(...unknown);
    entries.sort((a, b) => a.tag - b.tag);
  }
  writer.unsignedVarint(entries.length);
  let previousTag = -1;
  for (const entry of entries) {
    if (entry.tag === previousTag) {
      throw new EncodeError(
        "invalid",
        `tag ${entry.tag} appears twice in one tagged-field section`,
      );
    }
    previousTag = entry.tag;
    writer.unsignedVarint(entry.tag).unsignedVarint(entry.data.length).raw(entry.data);
  }
}

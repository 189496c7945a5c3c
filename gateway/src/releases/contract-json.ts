import { toJson, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";

/**
 * A message as the releases contract's JSON: its proto JSON, nothing
 * reshaped. proto/releases names the fields (`json_name`) and picks types
 * whose JSON is the contract's (numbers, lowercase strings); implicit fields
 * are written too, so a record always has its four `downloads` lists.
 */
export function contractJson<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonValue {
  return toJson(schema, message, { alwaysEmitImplicit: true });
}

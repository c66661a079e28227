/** @azure/arm-policy's own serializer and mappers, for the suites that read our Azure documents back through it. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The SDK's serializer mappers are its runtime model of the ARM wire format; the package's
 * exports map does not expose them, so they are loaded by file path from the installed package,
 * with the @azure/core-client serializer that package itself uses.
 */
const requireFromHere = createRequire(import.meta.url);
const armPolicyEntry = requireFromHere.resolve("@azure/arm-policy");
export const armPolicyMappers = requireFromHere(join(dirname(armPolicyEntry), "models", "mappers.js")) as Record<
  string,
  unknown
>;
const coreClient = createRequire(armPolicyEntry)("@azure/core-client") as {
  createSerializer(
    mappers: Record<string, unknown>,
    isXml?: boolean,
  ): {
    serialize(mapper: unknown, object: unknown, objectName?: string): unknown;
    deserialize(mapper: unknown, responseBody: unknown, objectName: string): unknown;
  };
};
export const azureSerializer = coreClient.createSerializer(armPolicyMappers, false);

/**
 * The MCP tool dora_register: the provider side of a DORA register of information for an approved
 * list (POST /v1/register), or for a saved list (GET /v1/lists/{id}/register). Kept in its own file,
 * registered by one line in tools.ts (TOOLS) and named in catalogue/contract/mcp.ts (MCP_TOOLS).
 */
import { z } from "zod";
import { HttpError } from "../catalogue/base/problem.ts";
import { Register, RegisterBody, RegisterEntity } from "../catalogue/schema/index.ts";

export const DORA_REGISTER_TOOL = {
  name: "dora_register" as const,
  description:
    "The provider side of a DORA register of information (ITS (EU) 2024/2956) for an approved list (POST /v1/register) or a saved list (listId, GET /v1/lists/{id}/register): templates B_05.01 (the entity each provider's EU customers contract with, its LEI where a sourced record has one), B_02.02 (ICT service type, countries of storage and processing from allowedLocations), B_05.02 and B_07.01 (substitutability, exit plan, alternatives from an exit plan to the target), every cell with its basis (catalogue, exit-plan, request, entity); toFill lists what only the entity can fill and checks names each of the ESAs' rules the register fails. Report what toFill and checks say before anything else; never invent an LEI or a value the register leaves empty.",
  input: {
    approvedServiceIds: RegisterBody.shape.approvedServiceIds.optional(),
    listId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "A saved list's id or slug, instead of approvedServiceIds" }),
    allowedLocations: RegisterBody.shape.allowedLocations,
    to: RegisterBody.shape.to.unwrap().extend({}).optional().meta({ description: RegisterBody.shape.to.description! }),
    entity: RegisterEntity.extend({}).optional().meta({ description: "The entity's own fields (RegisterEntity)" }),
  },
  request: (args: {
    approvedServiceIds?: string[] | undefined;
    listId?: string | undefined;
    allowedLocations?: string[] | undefined;
    to?: z.infer<typeof RegisterBody.shape.to>;
    entity?: z.infer<typeof RegisterEntity> | undefined;
  }) => {
    const { approvedServiceIds, listId, ...rest } = args;
    if ((approvedServiceIds === undefined) === (listId === undefined))
      throw new HttpError(400, "Invalid arguments", "Give approvedServiceIds or listId (one of them).");
    if (approvedServiceIds)
      return {
        operationId: "buildRegister",
        query: {},
        headers: {},
        body: Object.fromEntries(
          Object.entries({ approvedServiceIds, ...rest }).filter(([, value]) => value !== undefined),
        ),
      };
    const { entity, to, allowedLocations } = rest;
    if (entity?.arrangements || entity?.functions || entity?.providerCodes)
      throw new HttpError(
        400,
        "Invalid arguments",
        "A saved list's register takes the entity's lei, level, referenceDate and currency; give approvedServiceIds for arrangements, functions and providerCodes.",
      );
    const query = Object.fromEntries(
      Object.entries({
        lei: entity?.lei,
        level: entity?.level,
        referenceDate: entity?.referenceDate,
        currency: entity?.currency,
        allowedLocations: allowedLocations?.join(","),
        providers: to?.providers?.join(","),
        jurisdictions: to?.jurisdictions?.join(","),
        exclude: to?.exclude?.join(","),
        sovereignOption: to?.sovereignOption,
        euResidentOnly: to?.euResidentOnly,
      }).filter(([, value]) => value !== undefined),
    );
    return { operationId: "getListRegister", params: { id: listId }, query, headers: {} };
  },
  output: Register,
};

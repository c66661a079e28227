/**
 * One small input of every format the check reads, each checked by the package's build while it
 * records the files the check opens (build.ts): whatever a reader or the index starts reading is
 * then packed. Not a test of the check: its verdicts are not looked at.
 */
export type Sample = (
  | { readonly template: string; readonly files?: undefined }
  | { readonly files: Record<string, string>; readonly template?: undefined }
) & { readonly ids: string[]; readonly locations?: string[] };

export const SAMPLES: readonly Sample[] = [
  {
    template:
      'AWSTemplateFormatVersion: "2010-09-09"\nTransform: AWS::Serverless-2016-10-31\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties: { Runtime: nodejs20.x, Handler: index.handler, CodeUri: . }\n',
    ids: ["aws-s3"],
  },
  {
    template: JSON.stringify({
      $schema: "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
      contentVersion: "1.0.0.0",
      resources: [
        { type: "Microsoft.Storage/storageAccounts", apiVersion: "2023-01-01", name: "st", location: "westeurope" },
      ],
    }),
    ids: ["azure-blob-storage"],
    locations: ["EU"],
  },
  {
    template: JSON.stringify({
      format_version: "1.2",
      resource_changes: [
        ["aws_s3_bucket", "logs"],
        ["google_storage_bucket", "data"],
        ["azurerm_storage_account", "st"],
        ["random_id", "suffix"],
      ].map(([type, name]) => ({
        address: `${type}.${name}`,
        mode: "managed",
        type,
        name,
        change: { actions: ["create"] },
      })),
    }),
    ids: ["aws-s3"],
  },
  {
    files: {
      "main.tf":
        'resource "aws_sqs_queue" "q" {}\nresource "google_pubsub_topic" "t" {}\nresource "azurerm_resource_group" "g" {\n  location = "westeurope"\n}\nmodule "m" { source = "./m" }\n',
    },
    ids: ["aws-sqs"],
    locations: ["EU", "CH"],
  },
  { template: "storage.googleapis.com\npubsub.googleapis.com\n", ids: ["gcp-cloud-storage"] },
];

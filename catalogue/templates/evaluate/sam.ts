/**
 * What the SAM transform (AWS::Serverless-2016-10-31) creates for each AWS::Serverless resource,
 * per AWS's "CloudFormation resources generated" pages of the SAM guide (SAM_GENERATED_SOURCE for
 * functions: a role unless Role is given, an alias and version with AutoPublishAlias, each event
 * source's resources), so a SAM template is checked
 * as the stack CloudFormation deploys. Only the types are kept: the check needs what is created, not
 * its properties.
 */
export const SAM_TRANSFORM = "AWS::Serverless-2016-10-31";

export const SAM_GENERATED_SOURCE =
  "https://docs.aws.amazon.com/serverless-application-model/latest/developerguide/sam-specification-generated-resources-function.html";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Per serverless type, what it always creates. */
const BASE: Readonly<Record<string, readonly string[]>> = {
  "AWS::Serverless::Function": ["AWS::Lambda::Function", "AWS::IAM::Role"],
  "AWS::Serverless::Api": ["AWS::ApiGateway::RestApi", "AWS::ApiGateway::Deployment", "AWS::ApiGateway::Stage"],
  "AWS::Serverless::HttpApi": ["AWS::ApiGatewayV2::Api", "AWS::ApiGatewayV2::Stage"],
  "AWS::Serverless::SimpleTable": ["AWS::DynamoDB::Table"],
  "AWS::Serverless::StateMachine": ["AWS::StepFunctions::StateMachine", "AWS::IAM::Role"],
  "AWS::Serverless::LayerVersion": ["AWS::Lambda::LayerVersion"],
  "AWS::Serverless::Application": ["AWS::CloudFormation::Stack"],
  "AWS::Serverless::Connector": ["AWS::IAM::ManagedPolicy"],
  "AWS::Serverless::GraphQLApi": ["AWS::AppSync::GraphQLApi", "AWS::AppSync::DataSource", "AWS::IAM::Role"],
};

/** Per event source type of a function (or state machine), what the transform adds. */
const EVENTS: Readonly<Record<string, readonly string[]>> = {
  Api: ["AWS::ApiGateway::RestApi", "AWS::ApiGateway::Deployment", "AWS::ApiGateway::Stage", "AWS::Lambda::Permission"],
  HttpApi: ["AWS::ApiGatewayV2::Api", "AWS::ApiGatewayV2::Stage", "AWS::Lambda::Permission"],
  S3: ["AWS::Lambda::Permission"],
  SNS: ["AWS::SNS::Subscription", "AWS::Lambda::Permission"],
  SQS: ["AWS::Lambda::EventSourceMapping"],
  Kinesis: ["AWS::Lambda::EventSourceMapping"],
  DynamoDB: ["AWS::Lambda::EventSourceMapping"],
  MSK: ["AWS::Lambda::EventSourceMapping"],
  MQ: ["AWS::Lambda::EventSourceMapping"],
  DocumentDB: ["AWS::Lambda::EventSourceMapping"],
  SelfManagedKafka: ["AWS::Lambda::EventSourceMapping"],
  Schedule: ["AWS::Events::Rule", "AWS::Lambda::Permission"],
  ScheduleV2: ["AWS::Scheduler::Schedule"],
  CloudWatchEvent: ["AWS::Events::Rule", "AWS::Lambda::Permission"],
  EventBridgeRule: ["AWS::Events::Rule", "AWS::Lambda::Permission"],
  CloudWatchLogs: ["AWS::Logs::SubscriptionFilter", "AWS::Lambda::Permission"],
  IoTRule: ["AWS::IoT::TopicRule", "AWS::Lambda::Permission"],
  AlexaSkill: ["AWS::Lambda::Permission"],
  Cognito: ["AWS::Lambda::Permission"],
};

/** The CloudFormation types an AWS::Serverless resource becomes; an unknown one is kept as it is. */
export function expandServerless(type: string, resource: Record<string, unknown>): string[] {
  const base = BASE[type];
  if (!base) return [type];
  const properties = isObject(resource.Properties) ? resource.Properties : {};
  const types = new Set(base);
  // A function given a Role gets no generated role.
  if (type === "AWS::Serverless::Function" && properties.Role !== undefined) types.delete("AWS::IAM::Role");
  if (properties.AutoPublishAlias !== undefined) {
    types.add("AWS::Lambda::Version");
    types.add("AWS::Lambda::Alias");
  }
  if (properties.DeploymentPreference !== undefined) {
    types.add("AWS::CodeDeploy::Application");
    types.add("AWS::CodeDeploy::DeploymentGroup");
  }
  if (properties.FunctionUrlConfig !== undefined) types.add("AWS::Lambda::Url");
  if (isObject(properties.Events))
    for (const event of Object.values(properties.Events))
      if (isObject(event) && typeof event.Type === "string")
        for (const added of EVENTS[event.Type] ?? []) types.add(added);
  return [...types];
}

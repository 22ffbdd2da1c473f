package dev.speechscale.platform.aws;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.customresources.Provider;
import software.amazon.awscdk.services.codebuild.BuildEnvironment;
import software.amazon.awscdk.services.codebuild.BuildSpec;
import software.amazon.awscdk.services.codebuild.CloudWatchLoggingOptions;
import software.amazon.awscdk.services.codebuild.ComputeType;
import software.amazon.awscdk.services.codebuild.LinuxBuildImage;
import software.amazon.awscdk.services.codebuild.LoggingOptions;
import software.amazon.awscdk.services.codebuild.Project;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.IBucket;
import software.constructs.Construct;

/**
 * Copies one model's weights from Hugging Face into the model bucket once, at the pinned revision,
 * with a checksum manifest, before the endpoint stack starts a container that mounts them.
 *
 * <p>How: a CodeBuild project downloads the repository at {@code model_revision} ({@code
 * huggingface_hub.snapshot_download}; for {@code engine: kokoro} only {@link #KOKORO_FILES}, and
 * the build fails naming what is missing unless they form the layout the server loads from {@code
 * /opt/ml/model}), writes {@code MANIFEST.sha256} (one {@code sha256sum} line per file, sorted by
 * path, paths relative to the model directory, which the server verifies before {@code
 * weights_ready}), uploads the files to {@code s3://BUCKET/models/<repository>/<revision>/} with
 * S3-verified SHA-256 checksums, and uploads the manifest last, so its presence marks a complete
 * copy. A build that finds the manifest already there does nothing: the weights are synced once per
 * revision. A custom resource starts the build on create and whenever the repository or revision
 * changes, and waits (polling every 30 s, at most 2 h) until it succeeds, so CloudFormation fails
 * the deployment rather than starting an endpoint without weights. Deleting the stack leaves the
 * weights in the (retained) bucket. Public repositories only: no token is configured.
 */
public final class ModelCacheStack extends Stack {
  static final String ON_EVENT =
      """
      import os
      import boto3

      codebuild = boto3.client("codebuild")


      def handler(event, context):
          if event["RequestType"] == "Delete":
              # The weights stay in the retained bucket; there is nothing to undo.
              return {"PhysicalResourceId": event["PhysicalResourceId"]}
          build = codebuild.start_build(projectName=os.environ["PROJECT_NAME"])["build"]
          return {
              "PhysicalResourceId": event["ResourceProperties"]["WeightsUri"],
              "Data": {"BuildId": build["id"]},
          }
      """;

  static final String IS_COMPLETE =
      """
      import os
      import boto3

      codebuild = boto3.client("codebuild")


      def handler(event, context):
          if event["RequestType"] == "Delete":
              return {"IsComplete": True}
          build = codebuild.batch_get_builds(ids=[event["Data"]["BuildId"]])["builds"][0]
          status = build["buildStatus"]
          if status == "IN_PROGRESS":
              return {"IsComplete": False}
          if status != "SUCCEEDED":
              raise RuntimeError(
                  "weights sync ended " + status + "; read the build log of CodeBuild project "
                  + os.environ["PROJECT_NAME"])
          return {"IsComplete": True}
      """;

  /**
   * What a Kokoro endpoint's container loads from {@code /opt/ml/model} (server/README.md, the
   * model directory), in the layout of the public ONNX export of Kokoro-82M
   * (onnx-community/Kokoro-82M-v1.0-ONNX): the fp32 model, the voices, and the vocabulary (in
   * {@code tokenizer.json}; {@code config.json} beside it). Only these are synced: the export's
   * other dtypes ({@code onnx/model_*.onnx}, about 0.8 GB) are never read.
   */
  static final List<String> KOKORO_FILES =
      List.of(
          "onnx/model.onnx",
          "voices/*.bin",
          "config.json",
          "tokenizer.json",
          "tokenizer_config.json");

  /** The layout check of a Kokoro sync: the build fails naming what the revision lacks. */
  static final String KOKORO_LAYOUT_CHECK =
      """
      missing=""
      [ -f weights/onnx/model.onnx ] || missing="$missing onnx/model.onnx"
      ls weights/voices/*.bin >/dev/null 2>&1 || missing="$missing voices/*.bin"
      python3 -c 'import json, os, sys; v = [json.load(open(f)) for f in ("weights/tokenizer.json", "weights/config.json") if os.path.isfile(f)]; sys.exit(0 if any(d.get("vocab") or d.get("model", {}).get("vocab") for d in v if isinstance(d, dict)) else 1)' || missing="$missing vocab(tokenizer.json:model.vocab|config.json:vocab)"
      if [ -n "$missing" ]; then
        echo "${REPOSITORY}@${REVISION} lacks:$missing; ENGINE=kokoro loads the layout of the ONNX export (onnx-community/Kokoro-82M-v1.0-ONNX: onnx/model.onnx, voices/*.bin, tokenizer.json); set aws.model_repository to it and aws.model_revision to one of its commits" >&2
        exit 1
      fi
      """;

  /**
   * The manifest of what was downloaded: {@code sha256sum} lines sorted by path, paths relative to
   * the model directory (as the server's check reads them).
   */
  static final String MANIFEST_COMMAND =
      "(cd weights && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum"
          + " | sed 's#  \\./#  #' > ../MANIFEST.sha256)";

  /** The build: skip when the manifest exists, else download, checksum, upload, manifest last. */
  static final String SYNC_SCRIPT =
      """
      set -euo pipefail
      DEST="s3://${BUCKET}/${PREFIX}"
      if aws s3api head-object --bucket "$BUCKET" --key "${PREFIX}MANIFEST.sha256" >/dev/null 2>&1; then
        echo "weights already synced at $DEST (MANIFEST.sha256 present): nothing to do"
      else
        python3 -c 'import json, os; from huggingface_hub import snapshot_download; snapshot_download(repo_id=os.environ["REPOSITORY"], revision=os.environ["REVISION"], local_dir="weights", allow_patterns=json.loads(os.environ["ALLOW_PATTERNS"]) or None)'
        rm -rf weights/.cache
        if [ "$LAYOUT" = kokoro-onnx ]; then
      %s
        fi
      %s
        aws s3 sync weights/ "$DEST" --only-show-errors --checksum-algorithm SHA256
        aws s3 cp MANIFEST.sha256 "${DEST}MANIFEST.sha256" --only-show-errors --checksum-algorithm SHA256
        echo "synced $(wc -l < MANIFEST.sha256) files of ${REPOSITORY}@${REVISION} to $DEST"
      fi
      """
          .formatted(
              KOKORO_LAYOUT_CHECK.indent(4).stripTrailing(),
              MANIFEST_COMMAND.indent(2).stripTrailing());

  private final CustomResource sync;

  ModelCacheStack(Construct scope, StackProps props, AwsEndpointSpec spec, IBucket bucket) {
    super(scope, AwsNames.modelCacheStack(spec.modelName()), props);
    String weightsUri = "s3://" + bucket.getBucketName() + "/" + spec.weightsPrefix();

    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("BUCKET", bucket.getBucketName());
    variables.put("PREFIX", spec.weightsPrefix());
    variables.put("REPOSITORY", spec.modelRepository());
    variables.put("REVISION", spec.modelRevision());
    boolean kokoro = "kokoro".equals(spec.config().engine());
    variables.put("LAYOUT", kokoro ? "kokoro-onnx" : "any");
    variables.put("ALLOW_PATTERNS", kokoro ? json(KOKORO_FILES) : "[]");
    Project project =
        Project.Builder.create(this, "WeightsSync")
            .description(
                "Copies "
                    + spec.modelRepository()
                    + "@"
                    + spec.modelRevision()
                    + " into the model bucket once, with MANIFEST.sha256")
            .environment(
                BuildEnvironment.builder()
                    .buildImage(LinuxBuildImage.STANDARD_7_0)
                    .computeType(ComputeType.MEDIUM)
                    .privileged(false)
                    .build())
            .timeout(Duration.hours(2))
            .buildSpec(
                BuildSpec.fromObject(
                    Ordered.map(
                        "version",
                        "0.2",
                        "env",
                        Ordered.map("shell", "bash", "variables", variables),
                        "phases",
                        Ordered.map(
                            "install",
                            Ordered.map(
                                "commands",
                                List.of("pip install --quiet 'huggingface_hub>=0.23,<3'")),
                            "build",
                            Ordered.map("commands", List.of(SYNC_SCRIPT))))))
            .logging(
                LoggingOptions.builder()
                    .cloudWatch(
                        CloudWatchLoggingOptions.builder()
                            .logGroup(
                                LogGroup.Builder.create(this, "SyncLogs")
                                    .retention(RetentionDays.ONE_MONTH)
                                    .removalPolicy(RemovalPolicy.DESTROY)
                                    .build())
                            .build())
                    .build())
            .build();
    // Only this model's prefix: read (head-object) and write its objects, list under it.
    project.addToRolePolicy(
        PolicyStatement.Builder.create()
            .sid("WeightsObjects")
            .actions(List.of("s3:GetObject", "s3:PutObject"))
            .resources(List.of(bucket.arnForObjects(spec.weightsPrefix() + "*")))
            .build());
    project.addToRolePolicy(
        PolicyStatement.Builder.create()
            .sid("WeightsListing")
            .actions(List.of("s3:ListBucket"))
            .resources(List.of(bucket.getBucketArn()))
            .conditions(
                Map.of("StringLike", Map.of("s3:prefix", List.of(spec.weightsPrefix() + "*"))))
            .build());

    Function onEvent = handler("StartSync", ON_EVENT, project, "codebuild:StartBuild");
    Function isComplete = handler("AwaitSync", IS_COMPLETE, project, "codebuild:BatchGetBuilds");
    Provider provider =
        Provider.Builder.create(this, "SyncProvider")
            .onEventHandler(onEvent)
            .isCompleteHandler(isComplete)
            .queryInterval(Duration.seconds(30))
            .totalTimeout(Duration.hours(2))
            .build();
    sync =
        CustomResource.Builder.create(this, "WeightsSynced")
            .serviceToken(provider.getServiceToken())
            .resourceType("Custom::SpeechScaleWeights")
            .properties(
                Ordered.map(
                    "Repository", spec.modelRepository(),
                    "Revision", spec.modelRevision(),
                    "Layout", variables.get("LAYOUT"),
                    "WeightsUri", weightsUri))
            .build();

    CfnOutput.Builder.create(this, "WeightsUri").value(weightsUri).build();
    CfnOutput.Builder.create(this, "SyncProject").value(project.getProjectName()).build();
  }

  private static String json(List<String> values) {
    return values.stream()
        .map(v -> "\"" + v + "\"")
        .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
  }

  /**
   * A sync handler running {@code code}, allowed the one CodeBuild {@code action} on the project.
   */
  private Function handler(String id, String code, Project project, String action) {
    Function f =
        Function.Builder.create(this, id)
            .runtime(Runtime.PYTHON_3_12)
            .handler("index.handler")
            .code(Code.fromInline(code))
            .timeout(Duration.minutes(1))
            .environment(Map.of("PROJECT_NAME", project.getProjectName()))
            .build();
    f.addToRolePolicy(
        PolicyStatement.Builder.create()
            .actions(List.of(action))
            .resources(List.of(project.getProjectArn()))
            .build());
    return f;
  }

  /** The resource that completes when the weights are in the bucket. */
  public CustomResource sync() {
    return sync;
  }
}

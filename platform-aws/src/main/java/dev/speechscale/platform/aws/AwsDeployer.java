package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ScalingGate;
import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code speech-infra synth|deploy|destroy --platform aws}.
 *
 * <ul>
 *   <li>{@link #synth} builds the CDK app and writes the cloud assembly ({@code cdk.out}): offline,
 *       no credentials, no AWS call.
 *   <li>{@link #deploy} and {@link #destroy} first print what they will create or delete, read from
 *       the synthesized templates, then check that credentials exist (without calling AWS), then
 *       drive the AWS CDK CLI from npm ({@code npx --yes aws-cdk@2}) against that assembly.
 * </ul>
 *
 * The CDK CLI runs with {@code AWS_EC2_METADATA_DISABLED=true} unless the instance role was opted
 * into, so a machine without credentials never probes the metadata address.
 */
public final class AwsDeployer {
  /** The AWS CDK CLI, fetched from npm on first use. */
  public static final List<String> CDK_CLI = List.of("npx", "--yes", "aws-cdk@2");

  private final CommandRunner runner;
  private final Map<String, String> environment;
  private final Path home;
  private final PrintStream out;

  /**
   * @param runner runs the CDK CLI
   * @param environment the process environment (credentials are looked for here)
   * @param home the user's home directory (for {@code ~/.aws})
   * @param out where the plan of action and the CLI's output go
   */
  public AwsDeployer(
      CommandRunner runner, Map<String, String> environment, Path home, PrintStream out) {
    this.runner = runner;
    this.environment = Map.copyOf(environment);
    this.home = home;
    this.out = out;
  }

  /** A deployer over real processes, this process's environment and the user's home. */
  public static AwsDeployer system(PrintStream out) {
    return new AwsDeployer(
        CommandRunner.PROCESS, System.getenv(), Path.of(System.getProperty("user.home")), out);
  }

  /**
   * Writes the cloud assembly for one model. Offline: reads only its arguments.
   *
   * @param config the model's endpoint config
   * @param plan its plan artifact, or {@code null}
   * @param planSource where the plan was looked for (named in the gate's reason)
   * @param context CDK context; {@code account} and {@code region} choose the target
   * @param outDir the assembly directory (conventionally {@code cdk.out})
   * @throws PlatformException (InvalidRequest) when the config cannot deploy on SageMaker
   */
  public Synthesis synth(
      EndpointConfig config,
      @Nullable PlanArtifact plan,
      String planSource,
      Map<String, String> context,
      Path outDir) {
    SpeechInfraApp app;
    try {
      app = SpeechInfraApp.build(config, plan, planSource, context, outDir);
      app.app().synth();
    } catch (UncheckedIOException e) {
      throw nodeMissing(e);
    }
    List<StackSummary> stacks = new ArrayList<>();
    for (String name : app.stackNames()) {
      stacks.add(StackSummary.read(outDir, name));
    }
    return new Synthesis(outDir, app.spec(), app.decision(), stacks, app.targetDescription());
  }

  /**
   * CDK for Java runs the construct library in node (through jsii): without node the first
   * construct fails to start it. Says how to fix that; anything else passes through.
   */
  static RuntimeException nodeMissing(UncheckedIOException e) {
    String text = String.valueOf(e.getMessage());
    if (text.contains("\"node\"")) {
      return new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "CDK synthesis runs in Node.js and `node` was not found on PATH (or JSII_NODE):"
                  + " install Node.js 20 or newer (apt-get install nodejs) and run synth again"),
          e);
    }
    return e;
  }

  /**
   * {@link #synth} from files, as {@code speech-infra synth --platform aws} runs it: the endpoint
   * config file, the model in it, and the plan artifact if the file exists (a missing plan is not
   * an error: the gate then withholds scaling and says so).
   *
   * @throws dev.speechscale.artifacts.ArtifactException when the config or the plan is invalid
   */
  public Synthesis synth(
      Path configFile, String model, Path planFile, Map<String, String> context, Path outDir) {
    EndpointConfig config = EndpointConfigFile.read(configFile).model(model);
    PlanArtifact plan = Files.isRegularFile(planFile) ? ArtifactCodec.readPlan(planFile) : null;
    return synth(config, plan, planFile.toString(), context, outDir);
  }

  /**
   * Prints what will be created, then deploys every stack of the synthesis.
   *
   * @throws PlatformException MissingCredentials before anything runs when no credentials exist;
   *     InvalidRequest when npx is missing; Unavailable when the CDK CLI fails
   */
  public void deploy(Synthesis synthesis) {
    out.print(synthesis.describeDeploy());
    List<String> command = new ArrayList<>(CDK_CLI);
    command.addAll(
        List.of(
            "deploy",
            "--app",
            synthesis.assembly().toString(),
            "--require-approval",
            "never",
            "--progress",
            "events"));
    command.addAll(synthesis.stackNames());
    run(command, synthesis);
  }

  /**
   * Prints what will be deleted, then destroys the model's endpoint and weights-cache stacks (and
   * the shared foundation when asked; its bucket is retained either way).
   */
  public void destroy(Synthesis synthesis, boolean includeFoundation) {
    out.print(synthesis.describeDestroy(includeFoundation));
    List<String> command = new ArrayList<>(CDK_CLI);
    command.addAll(List.of("destroy", "--app", synthesis.assembly().toString(), "--force"));
    command.addAll(synthesis.destroyOrder(includeFoundation));
    run(command, synthesis);
  }

  private void run(List<String> command, Synthesis synthesis) {
    List<String> sources = AwsCredentialSources.find(environment, home);
    if (sources.isEmpty()) {
      throw new PlatformException(
          new PlatformException.Reason.MissingCredentials(
              AwsCredentialSources.fix() + ". Nothing was changed."));
    }
    out.println("credentials: " + String.join(", ", sources));
    out.println("running: " + String.join(" ", command));
    out.flush();
    Map<String, String> extra =
        "true".equalsIgnoreCase(environment.get(AwsCredentialSources.INSTANCE_ROLE))
            ? Map.of()
            : Map.of("AWS_EC2_METADATA_DISABLED", "true");
    int exit;
    try {
      exit = runner.run(command, extra, workDir(synthesis.assembly()), out);
    } catch (IOException e) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "cannot start `"
                  + String.join(" ", CDK_CLI)
                  + "` ("
                  + e.getMessage()
                  + "): install Node.js 20 or newer with npm (apt-get install nodejs npm) so npx"
                  + " can fetch the AWS CDK CLI"),
          e);
    }
    if (exit != 0) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              String.format(
                  Locale.ROOT,
                  "`%s` exited %d; its output is above. The stacks are left as CloudFormation"
                      + " left them: fix the cause and run the command again",
                  String.join(" ", command.subList(0, Math.min(command.size(), 4))),
                  exit)));
    }
  }

  /**
   * A synthesized cloud assembly and what it holds.
   *
   * @param assembly the {@code cdk.out} directory
   * @param spec the SageMaker settings it was built from
   * @param decision the plan gate's decision (print {@link ScalingGate.Decision#reason()})
   * @param stacks the stacks, in deployment order
   * @param target the account and region, for messages
   */
  public record Synthesis(
      Path assembly,
      AwsEndpointSpec spec,
      ScalingGate.Decision decision,
      List<StackSummary> stacks,
      String target) {
    public Synthesis {
      stacks = List.copyOf(stacks);
    }

    public List<String> stackNames() {
      return stacks.stream().map(StackSummary::stackName).toList();
    }

    /** Stacks {@code destroy} deletes, dependants first. */
    public List<String> destroyOrder(boolean includeFoundation) {
      List<String> order = new ArrayList<>(stackNames().reversed());
      if (!includeFoundation) {
        order.remove(AwsNames.FOUNDATION_STACK);
      }
      return order;
    }

    /** What {@code synth} printed: the assembly and the gate's decision. */
    public String describeSynth() {
      StringBuilder b = new StringBuilder();
      b.append("synthesized ").append(stacks.size()).append(" stacks into ").append(assembly);
      b.append(" (no AWS access needed):\n");
      for (StackSummary s : stacks) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %-40s %3d resources  %s%n",
                s.stackName(),
                s.resources().size(),
                s.template().getFileName()));
      }
      b.append("scaling: ").append(decision.reason()).append('\n');
      return b.toString();
    }

    /** What {@code deploy} will create, stack by stack, resource by resource. */
    public String describeDeploy() {
      StringBuilder b = new StringBuilder();
      b.append("deploy will create (or update, where they exist) ")
          .append(stacks.size())
          .append(" stacks in ")
          .append(target)
          .append(":\n");
      for (StackSummary s : stacks) {
        list(b, s);
      }
      b.append("scaling: ").append(decision.reason()).append('\n');
      b.append(
          "note: the stacks carry file assets, so the account and region need the CDK bootstrap"
              + " stack once: "
              + String.join(" ", CDK_CLI)
              + " bootstrap\n");
      return b.toString();
    }

    /** What {@code destroy} will delete, and what it keeps. */
    public String describeDestroy(boolean includeFoundation) {
      List<String> order = destroyOrder(includeFoundation);
      StringBuilder b = new StringBuilder();
      b.append("destroy will delete ")
          .append(order.size())
          .append(" stacks in ")
          .append(target)
          .append(", in this order: ")
          .append(String.join(", ", order))
          .append('\n');
      List<String> kept = new ArrayList<>();
      for (String name : order) {
        StackSummary s =
            stacks.stream().filter(x -> x.stackName().equals(name)).findFirst().orElseThrow();
        list(b, s);
        s.resources().stream()
            .filter(StackSummary.Resource::retained)
            .forEach(r -> kept.add(r.type() + " " + r.logicalId()));
      }
      if (!includeFoundation) {
        kept.add(
            "stack "
                + AwsNames.FOUNDATION_STACK
                + " (shared; destroy it with the foundation option)");
      }
      kept.add(
          "the weights under s3://<model bucket>/"
              + spec.weightsPrefix()
              + " (the bucket is retained)");
      b.append("kept: ").append(String.join("; ", kept)).append('\n');
      return b.toString();
    }

    private static void list(StringBuilder b, StackSummary s) {
      b.append("  ").append(s.stackName());
      if (!s.description().isEmpty()) {
        b.append(" — ").append(s.description());
      }
      b.append('\n');
      for (StackSummary.Resource r : s.resources()) {
        b.append(
            String.format(
                Locale.ROOT,
                "    %-44s %-44s %s%s%n",
                r.type(),
                r.logicalId(),
                r.name(),
                r.retained() ? " (retained on delete)" : ""));
      }
    }
  }

  /**
   * The directory a file or directory sits in (where cdk runs, beside the assembly; where the plan
   * is looked for, beside the config); the root has none, so it is its own.
   */
  static Path workDir(Path file) {
    Path absolute = file.toAbsolutePath();
    Path parent = absolute.getParent();
    return parent != null ? parent : absolute;
  }
}

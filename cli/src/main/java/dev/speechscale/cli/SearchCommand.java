package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.SearchModel;
import dev.speechscale.chain.SearchPlan;
import dev.speechscale.chain.SearchSummary;
import dev.speechscale.chain.SearchTypes;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.PolicySearch;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench search}: the cheapest deployable policy that meets an SLO goal on a trace.
 * Wiring only: {@link SearchInputs} reads and checks, {@link PolicySearch} searches, {@link
 * SearchSummary} prints and {@link SearchPlan} writes the plan artifact. Progress, with wall times,
 * goes to stderr; stdout and the artifact depend only on the inputs (with {@code SOURCE_DATE_EPOCH}
 * set, byte for byte).
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Search the policies a plan can deploy (target, scale-in threshold and alarm, cooldowns,"
          + " min, max, scheduled floors) for the cheapest that meets an SLO goal on a trace,"
          + " then score it on a held-out day against the plan and its rivals. Reads files only.",
      "Exit 0 ok, 1 refused, 2 usage."
    })
final class SearchCommand extends StampingCommand {
  @Spec CommandSpec spec;

  @Mixin SearchFlags f = new SearchFlags();

  SearchCommand() {}

  SearchCommand(NanoClock clock) {
    super(clock);
  }

  @Override
  public Integer call() {
    long t0 = clock.nanoTime();
    SearchInputs in = SearchInputs.read(f, spec);
    List<AlsoType> also = AlsoType.parse(f.alsoType, f.pricePerHour.usd, spec);
    PlanArtifact p = in.files().plan();
    long heldSeed = f.heldOutSeed != null ? f.heldOutSeed : f.seed.value + 1;
    PrintWriter err = spec.commandLine().getErr();
    Double price = f.pricePerHour.usd;
    boolean typed = price != null;
    QmaxArtifact q0 = in.files().qmax();
    PolicySearch.Result r =
        search(
            in,
            q0,
            in.model(),
            p,
            in.files().planNumbers(in.model()),
            in.scale(),
            heldSeed,
            typed ? SearchTypes.instanceType(q0) + ": " : "",
            t0);
    Provenance provenance =
        Provenance.capture(
            Cli.typedUnderTtsBench(spec), Map.of("plan", f.files.plan.file.toString()));
    Path target = f.output.orDefault("plan-search-" + p.model() + ".json");
    if (price == null) {
      SearchPlan.Record rec = record(in, heldSeed, in.scale());
      String json = SearchPlan.json(f.files.plan.file, r, rec, provenance, clock.instant());
      ArtifactCodec.writeText(target, json);
      spec.commandLine().getOut().print(SearchSummary.render(r, rec));
      err.printf(Locale.ROOT, "wrote %s in %.1f s%n", target, (clock.nanoTime() - t0) / 1e9);
      return 0;
    }
    List<SearchTypes.Type> types = new ArrayList<>();
    List<Integer> scales = new ArrayList<>();
    String given = "the given " + Flags.TTOTAL;
    types.add(
        new SearchTypes.Type(
            SearchTypes.instanceType(q0),
            f.files.qmax.file.toString(),
            SearchTypes.qMax(q0),
            price,
            given,
            f.files.plan.file.toString(),
            p,
            read(f.files.plan.file),
            r));
    scales.add(in.scale());
    for (AlsoType a : also) {
      QmaxArtifact q = ArtifactCodec.readQmax(a.qmax());
      List<StartupDelaySamples.Input> ttotals =
          a.ttotal() == null
              ? in.files().ttotals()
              : List.of(
                  new StartupDelaySamples.Input(
                      ArtifactCodec.readTtotal(a.ttotal()), a.ttotal().toString()));
      PlanArtifact pa =
          SearchTypes.derivePlan(
              a.qmax(),
              q,
              a.ttotal() != null ? a.ttotal() : f.files.ttotal.files.getFirst(),
              a.ttotal() == null,
              p,
              f.files.plan.file,
              Cli.typedUnderTtsBench(spec),
              line -> err.println("search: " + SearchTypes.instanceType(q) + ": " + line),
              clock.instant());
      InstanceModel model =
          SearchModel.instance(q, a.qmax().toString(), ttotals, pa, f.maxRequestAge.value);
      int scale = SearchInputs.scale(f.screenScale, in.table(), model, spec);
      PolicySearch.Result ra =
          search(
              in,
              q,
              model,
              pa,
              SearchModel.planNumbers(pa, model),
              scale,
              heldSeed,
              SearchTypes.instanceType(q) + ": ",
              t0);
      types.add(
          new SearchTypes.Type(
              SearchTypes.instanceType(q),
              a.qmax().toString(),
              SearchTypes.qMax(q),
              a.pricePerHour(),
              a.ttotal() == null ? given : "its own " + a.ttotal(),
              "derived from " + f.files.plan.file + " for this ladder",
              pa,
              ArtifactCodec.toJson(pa),
              ra));
      scales.add(scale);
    }
    int chosen = SearchTypes.choose(types, in.goal());
    SearchTypes.Type c = types.get(chosen);
    SearchPlan.Record rec = record(in, heldSeed, scales.get(chosen));
    String json =
        SearchPlan.json(
            c.planJson(),
            c.result(),
            rec,
            provenance,
            clock.instant(),
            SearchTypes.section(types, chosen, in.goal()));
    ArtifactCodec.writeText(target, json);
    spec.commandLine()
        .getOut()
        .print(
            (types.size() > 1 ? "chosen type " + c.instanceType() + "'s search:\n" : "")
                + SearchSummary.render(c.result(), rec)
                + SearchTypes.render(types, chosen, in.goal()));
    err.printf(Locale.ROOT, "wrote %s in %.1f s%n", target, (clock.nanoTime() - t0) / 1e9);
    return 0;
  }

  /** One type's search: the same traffic, goal and seeds, that type's instance and plan. */
  private PolicySearch.Result search(
      SearchInputs in,
      QmaxArtifact q,
      InstanceModel model,
      PlanArtifact plan,
      dev.speechscale.simulator.Policies.PlanNumbers numbers,
      int scale,
      long heldSeed,
      String label,
      long t0) {
    PolicySearch.Inputs inputs =
        new PolicySearch.Inputs(
            model,
            in.traffic(),
            in.table(),
            new FleetSimulator.Options(
                q.sloMs(),
                f.metricDelay.resolved(q.platform()),
                f.seed.value,
                new FleetSimulator.PreRoll.Window()),
            in.goal(),
            numbers,
            plan.minSafeInstances() != null ? plan.minSafeInstances() : plan.minInstances(),
            heldSeed,
            f.heldOutShift.toSeconds(),
            scale,
            f.finalists,
            SearchModel.floorLeadSeconds(plan.tTotalS()),
            f.threads != null ? f.threads : Runtime.getRuntime().availableProcessors(),
            f.families);
    PrintWriter err = spec.commandLine().getErr();
    return PolicySearch.run(
        inputs,
        line -> {
          err.printf(
              Locale.ROOT, "search: %6.1f s  %s%s%n", (clock.nanoTime() - t0) / 1e9, label, line);
          err.flush();
        });
  }

  private SearchPlan.Record record(SearchInputs in, long heldSeed, int scale) {
    return new SearchPlan.Record(
        in.goal(),
        in.traffic().description(),
        in.traceDigest(),
        f.seed.value,
        heldSeed,
        f.heldOutShift.toSeconds(),
        scale);
  }

  private static String read(Path file) {
    try {
      return java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * One {@code --also-type QMAX=USD[,TTOTAL]}.
   *
   * @param qmax its qmax artifact
   * @param pricePerHour its price per instance-hour
   * @param ttotal its own ttotal artifact, or {@code null} for the given ones
   */
  record AlsoType(Path qmax, double pricePerHour, @Nullable Path ttotal) {
    private static final java.util.regex.Pattern FORM =
        java.util.regex.Pattern.compile("^(.+)=([^=,]+)(?:,(.+))?$");

    static List<AlsoType> parse(List<String> given, @Nullable Double basePrice, CommandSpec spec) {
      PricePerHour.check(spec, basePrice, " per instance-hour, e.g. 1.408");
      if (!given.isEmpty() && basePrice == null) {
        throw Cli.usage(
            spec,
            Flags.ALSO_TYPE
                + " needs "
                + Flags.PRICE_PER_HOUR
                + " USD, the "
                + Flags.QMAX
                + " type's price: types are compared in money, not instance-hours");
      }
      List<AlsoType> out = new ArrayList<>();
      for (String g : given) {
        java.util.regex.Matcher m = FORM.matcher(g.strip());
        double price = Double.NaN;
        if (m.matches()) {
          try {
            price = Double.parseDouble(m.group(2).strip());
          } catch (NumberFormatException e) {
            // the usage error below
          }
        }
        if (!m.matches() || !PricePerHour.valid(price)) {
          throw Cli.usage(
              spec,
              Flags.ALSO_TYPE
                  + " ("
                  + g
                  + ") must be QMAX_FILE=USD[,TTOTAL_FILE] with a positive price per"
                  + " instance-hour, e.g. qmax-1cpu.json=0.10");
        }
        out.add(
            new AlsoType(
                Path.of(m.group(1).strip()),
                price,
                m.group(3) == null ? null : Path.of(m.group(3).strip())));
      }
      return out;
    }
  }
}

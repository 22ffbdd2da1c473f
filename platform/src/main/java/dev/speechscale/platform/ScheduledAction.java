package dev.speechscale.platform;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An Application Auto Scaling scheduled action on a scalable target, as {@code
 * DescribeScheduledActions} reports it
 * (docs.aws.amazon.com/autoscaling/application/APIReference/API_ScheduledAction.html): at each time
 * of {@code schedule} the target's MinCapacity and/or MaxCapacity become these.
 *
 * @param name the scheduled action's name
 * @param schedule {@code cron(...)}, {@code rate(...)} or {@code at(...)} (UTC)
 * @param minCapacity the new minimum, or {@code null} to leave it
 * @param maxCapacity the new maximum, or {@code null} to leave it
 */
public record ScheduledAction(
    String name, String schedule, @Nullable Integer minCapacity, @Nullable Integer maxCapacity) {
  public ScheduledAction {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(schedule, "schedule");
  }
}

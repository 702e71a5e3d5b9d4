package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.event.TaskEvent;
import dev.taskagent.task.Task;
import dev.taskagent.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkGraphExampleTest {

    @Test
    void threeAgentsWorkTheSixTasksInDependencyOrder() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WorkGraphExample.Result result = WorkGraphExample.run(new PrintStream(printed, true, StandardCharsets.UTF_8));

        Map<String, Task> plan = result.plan().children();
        assertThat(plan.keySet()).containsExactly("build", "docs", "unit", "integration", "package", "deploy");
        List<TaskEvent> events = result.events();
        // Listeners of different workers may hear of a completion and of the claim it allowed in either
        // order, so the order is read from what the store recorded: the task as claimed, and the times.
        Map<Long, TaskEvent.Claimed> claims = new HashMap<>();
        Map<Long, TaskEvent.Completed> successes = new HashMap<>();
        for (TaskEvent event : events) {
            if (event instanceof TaskEvent.Claimed claimed) {
                assertThat(claims.put(event.task().id(), claimed))
                        .as("task #%d is claimed once", event.task().id())
                        .isNull();
            } else if (event instanceof TaskEvent.Completed completed && completed.outcome() == TaskStatus.SUCCESS) {
                successes.put(event.task().id(), completed);
            }
        }
        assertThat(claims.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        plan.values().stream().map(Task::id).toList());
        for (Task task : plan.values()) {
            Task asClaimed = claims.get(task.id()).task();
            assertThat(asClaimed.blockedBy()).isEqualTo(task.blockedBy());
            assertThat(asClaimed.openBlockers())
                    .as("#%d was claimed with every blocker succeeded", task.id())
                    .isZero();
            for (long blocker : task.blockedBy()) {
                assertThat(successes.get(blocker))
                        .as("blocker #%d of #%d succeeded", blocker, task.id())
                        .isNotNull();
                assertThat(successes.get(blocker).task().updatedAt())
                        .as("blocker #%d of #%d succeeded before the claim", blocker, task.id())
                        .isBeforeOrEqualTo(asClaimed.updatedAt());
            }
        }
        assertThat(plan.get("deploy").blockedBy())
                .containsExactly(plan.get("docs").id(), plan.get("package").id());
        assertThat(plan.get("package").blockedBy())
                .containsExactly(plan.get("unit").id(), plan.get("integration").id());
        Map<Long, String> claimedBy = new HashMap<>();
        events.stream()
                .filter(TaskEvent.Claimed.class::isInstance)
                .map(TaskEvent.Claimed.class::cast)
                .forEach(claimed -> claimedBy.put(claimed.task().id(), claimed.agent()));
        assertThat(claimedBy.get(plan.get("deploy").id())).isEqualTo("ops");
        assertThat(claimedBy.get(plan.get("unit").id())).isEqualTo("qa");
        assertThat(result.parent().status()).isEqualTo(TaskStatus.SUCCESS);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("ops claims #" + plan.get("deploy").id() + " Deploy to production")
                .endsWith("Plan #" + result.parent().id() + " success" + System.lineSeparator());
    }
}

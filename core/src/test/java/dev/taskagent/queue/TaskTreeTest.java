package dev.taskagent.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.task.NewTask;
import org.junit.jupiter.api.Test;

/** A plan is checked as a whole before any store sees it. */
class TaskTreeTest {

    private static NewTask task(String description) {
        return NewTask.builder("s", description).build();
    }

    @Test
    void createsBlockersBeforeTheirDependantsAndKeepsTheDeclaredOrderOtherwise() {
        TaskTree tree = TaskTree.builder(task("Release"))
                .child("deploy", task("Deploy"), "test", "docs")
                .child("test", task("Test"), "build")
                .child("build", task("Build"))
                .child("docs", task("Docs"))
                .build();

        assertThat(tree.children()).extracting(TaskTree.Child::key).containsExactly("deploy", "test", "build", "docs");
        assertThat(tree.creationOrder())
                .extracting(TaskTree.Child::key)
                .containsExactly("build", "test", "docs", "deploy");
    }

    @Test
    void refusesAKeyThatIsNotDeclared() {
        TaskTree.Builder builder = TaskTree.builder(task("Release")).child("test", task("Test"), "biuld");
        builder.child("build", task("Build"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subtask 'test' waits for 'biuld', which is not a key of this tree; its keys are test,"
                        + " build");
    }

    @Test
    void refusesACycleAndNamesIt() {
        TaskTree.Builder builder = TaskTree.builder(task("Release"))
                .child("a", task("A"), "b")
                .child("b", task("B"), "c")
                .child("c", task("C"), "a")
                .child("d", task("D"));

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the subtasks wait for each other in a cycle: a → b → c → a (each waits for the next);"
                        + " remove one of those waits");
    }

    @Test
    void refusesDuplicateKeysSelfWaitsRepeatedBlockersAndAParentOfItsOwn() {
        TaskTree.Builder builder = TaskTree.builder(task("Release")).child("a", task("A"));

        assertThatThrownBy(() -> builder.child("a", task("Again")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two subtasks have the key 'a'; give each its own key");
        assertThatThrownBy(() -> builder.child("b", task("B"), "b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subtask 'b' cannot wait for itself");
        assertThatThrownBy(() -> builder.child("b", task("B"), "a", "a"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subtask 'b' names 'a' twice");
        assertThatThrownBy(() -> builder.child(" ", task("B")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a subtask's key must not be blank");
        assertThatThrownBy(() ->
                        builder.child("b", NewTask.builder("s", "B").parent(9).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names parent 9");
        assertThat(builder.build().children()).hasSize(1);
    }

    @Test
    void refusesMoreChildrenThanTheLimit() {
        TaskTree.Builder builder = TaskTree.builder(task("Big"));
        for (int i = 0; i < TaskTree.MAX_CHILDREN; i++) {
            builder.child("k" + i, task("T" + i));
        }

        assertThatThrownBy(() -> builder.child("one more", task("X")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + TaskTree.MAX_CHILDREN);
    }

    @Test
    void theResultNamesItsKeysWhenAskedForAnUnknownOne() {
        assertThatThrownBy(() -> new TaskTree.Created(
                                dev.taskagent.store.spi.TaskSnapshots.created(task("P"), 1, 1, java.time.Instant.EPOCH),
                                java.util.Map.of())
                        .child("x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the tree has no subtask 'x'");
    }
}

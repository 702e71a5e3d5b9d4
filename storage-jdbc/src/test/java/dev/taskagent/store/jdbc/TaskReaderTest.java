package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The parts of {@link TaskReader} that no database run can pin down: its statement has no ORDER BY, so
 * the order in which a database returns child rows is its own choice, and the reader must not depend on
 * it.
 */
class TaskReaderTest {

    @Test
    void childrenThatArriveOutOfSequenceComeOutInSequence() {
        TaskReader.Children<String> children = new TaskReader.Children<>();
        children.add(30, "third");
        children.add(10, "first");
        children.add(20, "second");

        assertThat(children.inOrder()).containsExactly("first", "second", "third");
    }

    @Test
    void childrenThatArriveInSequenceKeepIt() {
        TaskReader.Children<String> children = new TaskReader.Children<>();
        children.add(1, "a");
        children.add(2, "b");
        children.add(7, "c");

        assertThat(children.inOrder()).containsExactly("a", "b", "c");
    }

    @Test
    void everyReadOnH2IsAPlainSelectSoThatH2KeepsItPrepared() {
        for (TaskReader.Shape shape : TaskReader.Shape.values()) {
            assertThat(TaskReader.sql(shape, H2Dialect.INSTANCE)).startsWith("SELECT * FROM (SELECT 'T'");
            assertThat(TaskReader.sql(shape, PostgresDialect.INSTANCE)).startsWith("SELECT 'T'");
        }
    }
}

package dev.taskagent.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.task.Comment;
import dev.taskagent.task.Link;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ChildrenTextTest {
    private static final Instant AT = Instant.parse("2026-11-25T15:00:00.000001Z");

    @Test
    void everyKindComesBackAsWrittenInTheOrderOfItsKind() {
        String text = ChildrenText.progress("3:four")
                + ChildrenText.comment("bob", "hi", AT)
                + ChildrenText.preference("P1:x")
                + ChildrenText.link("https://example.com/?q=1:2", "the \"docs\"\n", "carol", AT.plusSeconds(1))
                + ChildrenText.message("m-\uD83D\uDE00")
                + ChildrenText.progress("");

        ChildrenText.Children children = ChildrenText.parse(text);

        assertThat(children.progresses()).containsExactly("3:four", "");
        assertThat(children.preferences()).containsExactly("P1:x");
        assertThat(children.comments()).containsExactly(new Comment("bob", "hi", AT));
        assertThat(children.links())
                .containsExactly(new Link("https://example.com/?q=1:2", "the \"docs\"\n", "carol", AT.plusSeconds(1)));
        assertThat(children.messageIds()).containsExactly("m-\uD83D\uDE00");
    }

    @Test
    void anEmptyTextHasNoChildren() {
        ChildrenText.Children children = ChildrenText.parse("");

        assertThat(children.progresses()).isEmpty();
        assertThat(children.comments()).isEmpty();
        assertThat(children.messageIds()).isEmpty();
    }

    @Test
    void aDamagedTextIsRefusedNotMisread() {
        for (String damaged : new String[] {"X1:a", "P", "P5:abc", "P-1:a", "Pa:b", "C3:bob5:hello3:now", "P1a"}) {
            assertThatThrownBy(() -> ChildrenText.parse(damaged))
                    .as(damaged)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Not a children text");
        }
    }
}

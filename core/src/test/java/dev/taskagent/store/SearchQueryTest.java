package dev.taskagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.taskagent.task.TaskStatus;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SearchQueryTest {

    @Test
    void wordsAreRunsOfLettersDigitsAndMarksOfAnyScriptLowerCased() {
        assertThat(SearchQuery.words("Überweisung, PRÜFEN! задача ΕΡΓΑΣΙΑ café 3.5 x-ray überweisung"))
                .containsExactly("überweisung", "prüfen", "задача", "εργασια", "café", "3", "5", "x", "ray");
        assertThat(SearchQuery.words("cafe\u0301")).containsExactly("café");
        assertThat(SearchQuery.words("日本語のテキスト")).containsExactly("日本語のテキスト");
        assertThat(SearchQuery.words("\"&|!()*")).isEmpty();
    }

    @Test
    void aQueryWithoutWordsIsRefusedWithAMessageThatSaysWhy() {
        for (String text : new String[] {"", "   ", "\"&|!()*", "-- ; /* */"}) {
            assertThatThrownBy(() -> SearchQuery.of(text))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("holds no word");
        }
    }

    @Test
    void aLongQueryIsRefusedBeforeItIsRead() {
        String megabyte = "wort ".repeat(200_000);

        assertThatThrownBy(() -> SearchQuery.of(megabyte))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + SearchQuery.MAX_TEXT_LENGTH + " characters");
        assertThatThrownBy(() -> SearchQuery.of("a b c d e f g h i j k l m n o p q"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + SearchQuery.MAX_WORDS + " distinct words");
        assertThat(SearchQuery.of("a a a a a a a a a a a a a a a a a a a a").words())
                .containsExactly("a");
    }

    @Test
    void limitsOutsideOneToTheMaximumAreRefused() {
        SearchQuery query = SearchQuery.of("wort");

        for (int limit : new int[] {0, -1, SearchQuery.MAX_LIMIT + 1, 1_000_000_000}) {
            assertThatThrownBy(() -> query.withLimit(limit))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("between 1 and " + SearchQuery.MAX_LIMIT);
        }
        assertThat(query.limit()).isEqualTo(SearchQuery.DEFAULT_LIMIT);
        assertThat(query.withLimit(SearchQuery.MAX_LIMIT).limit()).isEqualTo(SearchQuery.MAX_LIMIT);
    }

    @Test
    void blankOrOverlongCursorsAreRefusedAsCursorErrors() {
        SearchQuery query = SearchQuery.of("wort");

        assertThatThrownBy(() -> query.withCursor(" ")).isInstanceOf(SearchCursorException.class);
        assertThatThrownBy(() -> query.withCursor("x".repeat(1 << 20)))
                .isInstanceOf(SearchCursorException.class)
                .hasMessageContaining("without a cursor");
        assertThat(query.withCursor(null).cursor()).isEmpty();
    }

    @Test
    void theCanonicalFormHoldsWordsAndFiltersButNotThePage() {
        SearchQuery query = SearchQuery.of("Rechnung prüfen").withAssignee("alice");

        assertThat(query.canonicalForm())
                .isEqualTo(
                        SearchQuery.of("rechnung, PRÜFEN").withAssignee("alice").canonicalForm());
        assertThat(query.withLimit(5).withCursor("abc").canonicalForm()).isEqualTo(query.canonicalForm());
        assertThat(query.withTag("x").canonicalForm()).isNotEqualTo(query.canonicalForm());
        assertThat(query.withStatuses(Set.of(TaskStatus.PENDING)).canonicalForm())
                .isNotEqualTo(query.canonicalForm());
        assertThat(query.includingArchived().canonicalForm()).isNotEqualTo(query.canonicalForm());
    }

    @Test
    void filtersRefuseNamesNoTaskCouldCarry() {
        SearchQuery query = SearchQuery.of("wort");

        assertThatThrownBy(() -> query.withAssignee(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> query.withAssignee("a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> query.withSession("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> query.withTag("x".repeat(65))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SearchQuery.of("wort\u0000")).isInstanceOf(IllegalArgumentException.class);
    }
}

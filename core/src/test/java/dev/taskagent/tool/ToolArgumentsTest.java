package dev.taskagent.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {

    @Test
    void readsTypedValuesOfAJsonObject() {
        ToolArguments arguments = ToolArguments.parse(
                "{\"task_order\": 3, \"task_description\": \"Book a table\", \"orders\": [1, 2], \"ids\": [\"m1\", \"m2\"],"
                        + " \"task_id\": 9000000000}");

        assertThat(arguments.requiredInt("task_order")).isEqualTo(3);
        assertThat(arguments.requiredString("task_description")).isEqualTo("Book a table");
        assertThat(arguments.requiredIntList("orders")).containsExactly(1, 2);
        assertThat(arguments.optionalStringList("ids")).contains(List.of("m1", "m2"));
        assertThat(arguments.requiredLong("task_id")).isEqualTo(9_000_000_000L);
        assertThat(arguments.names()).containsExactly("task_order", "task_description", "orders", "ids", "task_id");
        assertThat(arguments.has("task_order")).isTrue();
        assertThat(arguments.has("absent")).isFalse();
    }

    @Test
    void absentOptionalValuesAreEmpty() {
        ToolArguments arguments = ToolArguments.parse("{}");

        assertThat(arguments.optionalInt("n")).isEqualTo(OptionalInt.empty());
        assertThat(arguments.optionalLong("n")).isEqualTo(OptionalLong.empty());
        assertThat(arguments.optionalString("s")).isEmpty();
        assertThat(arguments.optionalStringList("l")).isEmpty();
    }

    @Test
    void missingRequiredArgumentsAreNamedWithTheirType() {
        ToolArguments arguments = ToolArguments.parse("{}");

        assertThatThrownBy(() -> arguments.requiredInt("task_order"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Missing required argument 'task_order' (an integer).");
        assertThatThrownBy(() -> arguments.requiredLong("task_id"))
                .hasMessage("Missing required argument 'task_id' (an integer).");
        assertThatThrownBy(() -> arguments.requiredString("progress"))
                .hasMessage("Missing required argument 'progress' (a string).");
        assertThatThrownBy(() -> arguments.requiredIntList("orders"))
                .hasMessage("Missing required argument 'orders' (an array of integers).");
    }

    @Test
    void nullCountsAsAbsent() {
        ToolArguments arguments = ToolArguments.parse("{\"n\": null, \"s\": null}");

        assertThat(arguments.has("n")).isFalse();
        assertThat(arguments.optionalInt("n")).isEmpty();
        assertThat(arguments.optionalString("s")).isEmpty();
        assertThatThrownBy(() -> arguments.requiredInt("n")).hasMessage("Missing required argument 'n' (an integer).");
    }

    @Test
    void integerInARangeIsReadAndOneOutsideIsRefusedNamingTheRange() {
        ToolArguments arguments = ToolArguments.parse("{\"low\": 0, \"edge\": 100, \"high\": 1000000000}");

        assertThat(arguments.optionalInt("edge", 1, 100)).hasValue(100);
        assertThat(arguments.optionalInt("absent", 1, 100)).isEmpty();
        assertThatThrownBy(() -> arguments.optionalInt("low", 1, 100))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'low' must be between 1 and 100, not 0.");
        assertThatThrownBy(() -> arguments.optionalInt("high", 1, 100))
                .hasMessage("Argument 'high' must be between 1 and 100, not 1000000000.");
        assertThatThrownBy(() -> arguments.optionalInt("edge", 5, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void integerWrittenAsAStringOrAsAWholeDecimalIsRead() {
        ToolArguments arguments = ToolArguments.parse("{\"a\": \"3\", \"b\": \" 7 \", \"c\": 4.0, \"d\": \"-2\"}");

        assertThat(arguments.requiredInt("a")).isEqualTo(3);
        assertThat(arguments.requiredInt("b")).isEqualTo(7);
        assertThat(arguments.requiredInt("c")).isEqualTo(4);
        assertThat(arguments.requiredLong("d")).isEqualTo(-2);
    }

    @Test
    void mistypedIntegersAreRefusedShowingWhatWasSent() {
        ToolArguments arguments =
                ToolArguments.parse("{\"word\": \"three\", \"fraction\": 2.5, \"flag\": true, \"list\": [1]}");

        assertThatThrownBy(() -> arguments.requiredInt("word"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'word' must be an integer, not the string \"three\".");
        assertThatThrownBy(() -> arguments.requiredInt("fraction"))
                .hasMessage("Argument 'fraction' must be an integer, not the number 2.5.");
        assertThatThrownBy(() -> arguments.requiredInt("flag"))
                .hasMessage("Argument 'flag' must be an integer, not the boolean true.");
        assertThatThrownBy(() -> arguments.requiredInt("list"))
                .hasMessage("Argument 'list' must be an integer, not the array [1].");
    }

    @Test
    void integerOutsideTheIntRangeIsRefusedForInts() {
        ToolArguments arguments = ToolArguments.parse("{\"n\": 3000000000, \"l\": [1, 3000000000]}");

        assertThatThrownBy(() -> arguments.requiredInt("n"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'n' is out of range (3000000000); send a smaller integer.");
        assertThatThrownBy(() -> arguments.requiredIntList("l"))
                .hasMessage("Argument 'l' holds an out-of-range integer (3000000000).");
        assertThat(arguments.requiredLong("n")).isEqualTo(3_000_000_000L);
    }

    @Test
    void mistypedStringsAreRefused() {
        ToolArguments arguments = ToolArguments.parse("{\"s\": 5, \"l\": [\"a\", {\"b\": 1}]}");

        assertThatThrownBy(() -> arguments.requiredString("s"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 's' must be a string, not the number 5.");
        assertThatThrownBy(() -> arguments.optionalStringList("l"))
                .hasMessage("Argument 'l' must be an array of strings; it holds the object {\"b\":1}.");
    }

    @Test
    void singleValueWhereAListIsExpectedIsAListOfOne() {
        ToolArguments arguments = ToolArguments.parse("{\"orders\": 3, \"quoted\": \"4\", \"ids\": \"m1\"}");

        assertThat(arguments.requiredIntList("orders")).containsExactly(3);
        assertThat(arguments.requiredIntList("quoted")).containsExactly(4);
        assertThat(arguments.optionalStringList("ids")).contains(List.of("m1"));
    }

    @Test
    void listElementOfTheWrongTypeIsRefused() {
        ToolArguments arguments = ToolArguments.parse("{\"orders\": [1, \"x\"]}");

        assertThatThrownBy(() -> arguments.requiredIntList("orders"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'orders' must be an integer, not the string \"x\".");
    }

    @Test
    void malformedJsonIsRefusedWithAnExampleOfWhatToSend() {
        assertThatThrownBy(() -> ToolArguments.parse("{\"task_order\": 3"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessageStartingWith("The arguments are not valid JSON (")
                .hasMessageEndingWith("). Send the arguments as one JSON object, for example {\"name\": \"value\"}.");
        assertThatThrownBy(() -> ToolArguments.parse("task_order=3"))
                .hasMessageStartingWith("The arguments are not valid JSON (");
    }

    @Test
    void jsonFollowedByMoreTextIsMalformed() {
        // Models sometimes concatenate the arguments of two calls; taking the first would lose the second.
        assertThatThrownBy(() -> ToolArguments.parse("{\"task_order\": 1}{\"task_order\": 2}"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessageStartingWith("The arguments are not valid JSON (");
        assertThatThrownBy(() -> ToolArguments.parse("{\"task_order\": 1} trailing"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessageStartingWith("The arguments are not valid JSON (");
    }

    @Test
    void jsonThatIsNotAnObjectIsRefused() {
        assertThatThrownBy(() -> ToolArguments.parse("[1, 2]"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage(
                        "The arguments must be a JSON object, not the array [1,2]. Send them as {\"name\": value, ...}.");
        assertThatThrownBy(() -> ToolArguments.parse("\"Book a table\""))
                .hasMessage("The arguments must be a JSON object, not the string \"Book a table\". Send them as"
                        + " {\"name\": value, ...}.");
        assertThatThrownBy(() -> ToolArguments.parse("42"))
                .hasMessage(
                        "The arguments must be a JSON object, not the number 42. Send them as {\"name\": value, ...}.");
    }

    @Test
    void blankOrNullTextMeansNoArguments() {
        assertThat(ToolArguments.parse("").names()).isEmpty();
        assertThat(ToolArguments.parse("  \n").names()).isEmpty();
        assertThat(ToolArguments.parse("null").names()).isEmpty();
        assertThat(ToolArguments.empty().names()).isEmpty();
        assertThat(ToolArguments.empty().toJson()).isEqualTo("{}");
        assertThatThrownBy(() -> ToolArguments.parse(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void longValuesAreShortenedInMessages() {
        String longText = "x".repeat(200);
        ToolArguments arguments = ToolArguments.parse("{\"n\": \"" + longText + "\"}");

        assertThatThrownBy(() -> arguments.requiredInt("n"))
                .hasMessage("Argument 'n' must be an integer, not the string \"" + "x".repeat(58) + "\u2026.");
    }

    @Test
    void argumentsRenderAsCompactJson() {
        assertThat(ToolArguments.parse("{ \"a\" : 1 , \"b\" : [ \"x\" ] }").toJson())
                .isEqualTo("{\"a\":1,\"b\":[\"x\"]}");
        assertThat(ToolArguments.parse("{\"a\": 1}")).hasToString("{\"a\":1}");
        assertThat(ToolArguments.parse("{\"s\": \"\"}").optionalString("s")).isEqualTo(Optional.of(""));
    }

    @Test
    void keyNamedTwiceIsRefusedWithItsName() {
        assertThatThrownBy(() -> ToolArguments.parse("{\"task_description\":\"a\",\"task_description\":\"b\"}"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("The arguments name 'task_description' more than once. Send each argument once, with the"
                        + " value you mean.");
    }

    @Test
    void keyNamedTwiceInsideANestedObjectIsRefusedToo() {
        assertThatThrownBy(() -> ToolArguments.parse("{\"outer\": {\"x\": 1, \"x\": 2}}"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessageStartingWith("The arguments name 'x' more than once.");
    }

    @Test
    void integersWrittenAsStringsOfAsciiDigitsAreRead() {
        ToolArguments arguments = ToolArguments.parse("{\"a\": \"12\", \"b\": \" -3 \", \"c\": \"+4\"}");

        assertThat(arguments.requiredInt("a")).isEqualTo(12);
        assertThat(arguments.requiredInt("b")).isEqualTo(-3);
        assertThat(arguments.requiredInt("c")).isEqualTo(4);
    }

    @Test
    void digitsOfOtherScriptsAreRefusedWithTheDigitsToUse() {
        ToolArguments arguments = ToolArguments.parse(
                "{\"arabic\": \"\u0661\u0662\", \"fullwidth\": \"\uff11\uff12\", \"devanagari\": [\"\u0967\"]}");

        assertThatThrownBy(() -> arguments.requiredInt("arabic"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'arabic' must be an integer written with the digits 0-9, not the string"
                        + " \"\u0661\u0662\".");
        assertThatThrownBy(() -> arguments.requiredLong("fullwidth"))
                .hasMessage("Argument 'fullwidth' must be an integer written with the digits 0-9, not the string"
                        + " \"\uff11\uff12\".");
        assertThatThrownBy(() -> arguments.requiredIntList("devanagari"))
                .hasMessageStartingWith("Argument 'devanagari' must be an integer written with the digits 0-9");
    }

    @Test
    void integerStringTooLargeForALongIsOutOfRange() {
        ToolArguments arguments = ToolArguments.parse("{\"n\": \"99999999999999999999\"}");

        assertThatThrownBy(() -> arguments.requiredLong("n"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'n' is out of range (99999999999999999999); send a smaller integer.");
    }

    @Test
    void stringHoldingANulCharacterIsRefusedWithItsPosition() {
        ToolArguments arguments = ToolArguments.parse("{\"comment\": \"ab\\u0000c\", \"ids\": [\"m1\", \"\\u0000\"]}");

        assertThatThrownBy(() -> arguments.requiredString("comment"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'comment' contains a NUL character (U+0000) at index 2, which cannot be stored."
                        + " Remove it and send the text again.");
        assertThatThrownBy(() -> arguments.optionalStringList("ids"))
                .hasMessageStartingWith("Argument 'ids' contains a NUL character (U+0000) at index 0");
    }

    @Test
    void stringHoldingAnUnpairedSurrogateIsRefusedButAPairIsKept() {
        ToolArguments arguments = ToolArguments.parse(
                "{\"lone_high\": \"x\\ud83d\", \"lone_low\": \"\\ude00y\", \"emoji\": \"\\ud83d\\ude00\"}");

        assertThatThrownBy(() -> arguments.requiredString("lone_high"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessageStartingWith(
                        "Argument 'lone_high' contains an unpaired UTF-16 surrogate (U+D83D) at index 1");
        assertThatThrownBy(() -> arguments.optionalString("lone_low"))
                .hasMessageStartingWith(
                        "Argument 'lone_low' contains an unpaired UTF-16 surrogate (U+DE00) at index 0");
        assertThat(arguments.requiredString("emoji")).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void nameHoldingANewlineOrAnEscapeIsRefusedWithItsPositionButAnEmojiIsKept() {
        ToolArguments arguments = ToolArguments.parse(
                "{\"new_agent\": \"bob\\n{\\\"id\\\":9}\", \"assignee\": \"a\\u001b[31m\", \"author\": \"\\ud83d\\ude00\"}");

        assertThatThrownBy(() -> arguments.requiredName("new_agent"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'new_agent' contains a control character (U+000A) at index 3; a name is one"
                        + " line of printable text. Send it without that character.");
        assertThatThrownBy(() -> arguments.optionalName("assignee"))
                .hasMessageStartingWith("Argument 'assignee' contains a control character (U+001B) at index 1");
        assertThat(arguments.requiredName("author")).isEqualTo("\uD83D\uDE00");
    }

    @Test
    void aListOfObjectsIsReadWithTheSameGettersAndOneObjectIsAListOfOne() {
        List<ToolArguments> items = ToolArguments.parse("{\"todos\": [{\"content\": \"A\"}, {\"content\": \"B\"}]}")
                .requiredObjectList("todos");

        assertThat(items).extracting(item -> item.requiredText("content")).containsExactly("A", "B");
        assertThat(ToolArguments.parse("{\"todos\": {\"content\": \"A\"}}").requiredObjectList("todos"))
                .hasSize(1);
        assertThatThrownBy(() -> ToolArguments.parse("{\"todos\": [1]}").requiredObjectList("todos"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Argument 'todos' must be an array of objects; it holds the number 1.");
        assertThatThrownBy(() -> ToolArguments.parse("{}").requiredObjectList("todos"))
                .isInstanceOf(ToolArgumentException.class)
                .hasMessage("Missing required argument 'todos' (an array of objects).");
    }
}

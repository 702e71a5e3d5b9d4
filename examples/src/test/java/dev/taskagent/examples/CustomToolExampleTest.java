package dev.taskagent.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.taskagent.tool.ToolResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CustomToolExampleTest {

    @Test
    void theToolConvertsAndEveryMistakeComesBackAsAnErrorTheModelCanFix() {
        List<ToolResult> results =
                CustomToolExample.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(results.get(0)).isEqualTo(ToolResult.ok("1500 THB = 39.00 EUR"));
        assertThat(results.subList(1, results.size())).allMatch(ToolResult::isError);
        assertThat(results.get(1).text()).contains("'amount'").contains("integer");
        assertThat(results.get(2).text()).contains("Missing required argument 'amount'");
        assertThat(results.get(3).text()).isEqualTo("Argument 'from' is 'GBP'; use one of EUR, USD, THB.");
        assertThat(results.get(4).text())
                .contains("Unknown tool 'convert_currencies'")
                .contains("convert_currency");
        assertThat(results.get(5).text()).contains("not valid JSON");
    }
}

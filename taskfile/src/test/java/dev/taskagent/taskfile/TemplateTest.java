package dev.taskagent.taskfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TemplateTest {
    private static final Taskfile.Position POSITION = new Taskfile.Position(7, 9);

    private static String render(String template, Map<String, ?> vars)
            throws TaskfileException, Template.TooLongException {
        return Template.parse(template, POSITION).render(vars, Long.MAX_VALUE);
    }

    private static Map<String, Object> vars() {
        Map<String, Object> vars = new HashMap<>();
        vars.put("NAME", "Ada");
        vars.put("EMPTY", "");
        vars.put("PADDED", "  spaced \n");
        vars.put("LIST", List.of("a", "b c"));
        vars.put("COUNT", 3L);
        vars.put("RATIO", 1.5);
        vars.put("FLAG", false);
        return vars;
    }

    @Test
    void rendersVariablesWithOrWithoutSpaces() throws TaskfileException, Template.TooLongException {
        assertThat(render("hi {{.NAME}} and {{ .NAME }}!", vars())).isEqualTo("hi Ada and Ada!");
    }

    @Test
    void missingVariablesRenderAsNothing() throws TaskfileException, Template.TooLongException {
        assertThat(render("[{{.MISSING}}]", vars())).isEqualTo("[]");
    }

    @Test
    void printsTypedValuesLikeGo() throws TaskfileException, Template.TooLongException {
        assertThat(render("{{.COUNT}} {{.RATIO}} {{.FLAG}} {{.LIST}}", vars())).isEqualTo("3 1.5 false [a b c]");
    }

    @ParameterizedTest
    @CsvSource(
            delimiterString = " ==> ",
            value = {
                "{{.EMPTY | default \"x\"}} ==> x",
                "{{.NAME | default \"x\"}} ==> Ada",
                "{{default \"x\" .MISSING}} ==> x",
                "{{default \"x\" .FLAG}} ==> x",
                "{{if eq .NAME \"Ada\"}}yes{{else}}no{{end}} ==> yes",
                "{{if eq .NAME \"Bob\" \"Ada\"}}one of{{end}} ==> one of",
                "{{if .FLAG}}a{{else if .EMPTY}}b{{else if .NAME}}c{{end}} ==> c",
                "{{if .MISSING}}never{{end}} ==> ''",
                "{{eq .COUNT 3}} ==> true",
                "{{join \", \" .LIST}} ==> a, b c",
                "{{.LIST | join \"+\"}} ==> a+b c",
                "<{{trim .PADDED}}> ==> <spaced>",
                "<{{.PADDED | trim}}> ==> <spaced>",
                "{{if eq OS \"linux\"}}L{{else}}other{{end}} ==> L",
                "{{ARCH | trim | default \"none\"}} ==> amd64",
                "{{ (default \"d\" .EMPTY) }} ==> d",
                "a {{- \" b \" -}} c ==> a b c",
                "{{/* a comment */}}kept ==> kept",
                "{{`raw \\n`}} ==> raw \\n",
                "{{\"tab\\there\"}} ==> tab\there"
            })
    void supportsTheDocumentedFunctions(String template, String expected)
            throws TaskfileException, Template.TooLongException {
        String os = Template.operatingSystem();
        String arch = Template.architecture();
        String adjusted = expected.replace("amd64", arch);
        if (template.contains("eq OS")) {
            adjusted = os.equals("linux") ? "L" : "other";
        }
        assertThat(render(template, vars())).isEqualTo(adjusted);
    }

    @Test
    void renderingStopsAtItsLimitInsteadOfGrowingWithoutEnd() throws TaskfileException, Template.TooLongException {
        Template twice = Template.parse("{{.NAME}}{{.NAME}}", POSITION);
        assertThat(twice.render(vars(), 6)).isEqualTo("AdaAda");
        assertThatThrownBy(() -> twice.render(vars(), 5)).isInstanceOf(Template.TooLongException.class);
    }

    @Test
    void textWithoutActionsIsConstant() throws TaskfileException {
        assertThat(Template.parse("plain $HOME text", POSITION).constantText()).isEqualTo("plain $HOME text");
        assertThat(Template.parse("x {{.A}}", POSITION).constantText()).isNull();
    }

    @Test
    void deeplyNestedIfBlocksAreRefusedWithThePlaceInsteadOfOverflowingTheStack() {
        String nested = "{{if .A}}".repeat(5000) + "x" + "{{end}}".repeat(5000);
        assertThatThrownBy(() -> Template.parse(nested, POSITION))
                .isInstanceOf(TaskfileException.class)
                .hasMessageStartingWith("line 7, column 9: {{if}} blocks and parentheses nest more than 50 levels"
                        + " deep; flatten the template in the template \"{{if .A}}");
    }

    @Test
    void anErrorShowsALongTemplateCutWithAnEllipsisAndNeverHalfAnEmoji() {
        String template = "x".repeat(76) + "\uD83D\uDE00 {{end}}"; // the emoji's two halves at 76 and 77
        assertThatThrownBy(() -> Template.parse(template, POSITION))
                .isInstanceOf(TaskfileException.class)
                .hasMessageEndingWith(
                        "{{end}} without {{if}} in the template \"" + "x".repeat(76) + "\uD83D\uDE00 \u2026\"");
    }

    @Test
    void deeplyNestedParenthesesAreRefusedWithThePlaceInsteadOfOverflowingTheStack() {
        String nested = "{{" + "(".repeat(5000) + ".A" + ")".repeat(5000) + "}}";
        assertThatThrownBy(() -> Template.parse(nested, POSITION))
                .isInstanceOf(TaskfileException.class)
                .hasMessageStartingWith(
                        "line 7, column 9: {{if}} blocks and parentheses nest more than 50 levels" + " deep");
    }

    @Test
    void fiftyLevelsOfNestingStillRender() throws TaskfileException, Template.TooLongException {
        String ifs = "{{if .NAME}}".repeat(25) + "{{(((((((((((((((((((((((((.NAME)))))))))))))))))))))))))}}"
                + "{{end}}".repeat(25);
        assertThat(render(ifs, vars())).isEqualTo("Ada");
    }

    @Test
    void aHugeOrMalformedNumberIsRefusedWithAClearMessage() {
        String digits = "9".repeat(200_000);
        assertThatThrownBy(() -> Template.parse("{{eq .A " + digits + "}}", POSITION))
                .hasMessageContaining("is not supported; write a decimal integer or a decimal fraction");
        assertThatThrownBy(() -> Template.parse("{{eq .A 1.2.3}}", POSITION))
                .hasMessageContaining("the number '1.2.3' is not supported");
    }

    @ParameterizedTest
    @CsvSource(
            delimiterString = " ==> ",
            quoteCharacter = '~',
            value = {
                "{{upper .NAME}} ==> unknown template function 'upper'",
                "{{.NAME | printf \"%s\"}} ==> unknown template function 'printf'",
                "{{range .LIST}}x{{end}} ==> 'range' is not supported in templates",
                "{{with .NAME}}x{{end}} ==> 'with' is not supported in templates",
                "{{template \"x\"}} ==> 'template' is not supported in templates",
                "{{$x := 1}} ==> template variables ($name) are not supported",
                "{{.MAP.KEY}} ==> nested fields such as '.MAP.KEY' are not supported",
                "{{.}} ==> '.' alone",
                "{{.NAME ==> line 7, column 9: an action is not closed",
                "{{if .A}}x ==> {{if}} without {{end}}",
                "x{{end}} ==> {{end}} without {{if}}",
                "{{default}} ==> function 'default' gets 0 arguments",
                "{{join \",\"}} ==> function 'join' gets 1 argument",
                "{{OS \"x\"}} ==> function 'OS' gets 1 argument",
                "{{.A .B}} ==> '.A' is not a function",
                "{{.A | .B}} ==> cannot pipe into '.B'",
                "{{}} ==> an action is empty"
            })
    void refusesWhatIsOutsideTheSubsetNamingIt(String template, String problem) {
        assertThatThrownBy(() -> Template.parse(template, POSITION))
                .isInstanceOf(TaskfileException.class)
                .hasMessageContaining(problem)
                .hasMessageStartingWith("line 7, column 9: ");
    }
}

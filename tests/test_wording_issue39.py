"""Issue 39's wording: a machine line never calls a 42-minute reply comfortable; doctor's "answer format" line
holds no raw server error cut mid-quote; its "chat will use" line never ends with an empty model."""

from __future__ import annotations

from monchat.core.models.machine import Estimate, Machine, recommend, recommendation_line
from tests.test_openai_server_faults import fake, make  # noqa: F401 (the loopback server and its backends)

GB = 1024 ** 3


def test_a_slow_estimate_is_not_called_comfortable():
    machine = Machine(8 * GB, 2)
    model = recommend(machine)
    slow = recommendation_line(model, machine, Estimate(model, 42 * 60, 3 * 3600))
    quick = recommendation_line(model, machine, Estimate(model, 20, 600))
    assert "comfortably" not in slow and "slow" in slow and "about 42 min a reply" in slow
    assert "comfortably" in quick


def test_the_answer_format_line_holds_no_raw_server_error(make, fake):  # noqa: F811 (a fixture)
    fake.schema_support = False
    fake.schema_error = (500, "1 validation error for CreateChatCompletionRequest\nresponse_format\n  Input should "
                              "be 'text' or 'json_object' [type=literal_error, input_value={'type': 'json_schema'}]")
    check = next(c for c in make().doctor().checks if c.name == "answer format")
    assert check.ok and "validation error" not in check.detail and "input_value" not in check.detail

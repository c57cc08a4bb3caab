"""Numpy, pandas, scipy and matplotlib programs, each run in a fresh science isolate: what
model-written analysis code does, and the value it hands back."""

from __future__ import annotations

import base64
from typing import Any, Callable

import pytest

from sandbox import Sandbox

Check = Callable[[Any], bool]

NUMPY: list[tuple[str, str, Check]] = [
    ("arange_sum", "import numpy as np\nint(np.arange(10).sum())", lambda r: r == 45),
    ("array_result_is_a_list", "import numpy as np\nnp.arange(6).reshape(2, 3)",
     lambda r: r == [[0, 1, 2], [3, 4, 5]]),
    ("numpy_scalar_is_a_number", "import numpy as np\nnp.float32(1.5) * 2", lambda r: r == 3.0),
    ("matmul", "import numpy as np\na = np.ones((200, 200))\nfloat((a @ a)[0, 0])", lambda r: r == 200.0),
    ("solve_linear_system", "import numpy as np\nnp.linalg.solve([[3, 1], [1, 2]], [9, 8]).round(6)",
     lambda r: r == [2.0, 3.0]),
    ("eigenvalues", "import numpy as np\nsorted(np.linalg.eigvalsh([[2, 0], [0, 5]]).tolist())",
     lambda r: r == [2.0, 5.0]),
    ("broadcasting", "import numpy as np\n(np.arange(3)[:, None] + np.arange(3)).tolist()",
     lambda r: r == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]),
    ("boolean_mask", "import numpy as np\nx = np.array([5, -1, 3, -7])\nx[x > 0].tolist()",
     lambda r: r == [5, 3]),
    ("seeded_generator_is_reproducible",
     "import numpy as np\nnp.random.default_rng(42).integers(0, 100, 5).tolist() == "
     "np.random.default_rng(42).integers(0, 100, 5).tolist()", lambda r: r is True),
    ("statistics", "import numpy as np\nx = np.array([1.0, 2, 3, 4])\n[x.mean(), x.std(), np.median(x)]",
     lambda r: r == [2.5, pytest.approx(1.118034, abs=1e-6), 2.5]),
    ("nan_becomes_a_string", "import numpy as np\nfloat(np.nan)", lambda r: r == "NaN"),
    ("fft_peak", "import numpy as np\nt = np.arange(64)\nint(np.argmax(np.abs(np.fft.rfft(np.sin(2*np.pi*4*t/64)))))",
     lambda r: r == 4),
]

PANDAS: list[tuple[str, str, Check]] = [
    ("groupby_sum_as_records",
     "import pandas as pd\ndf = pd.DataFrame({'k': ['a', 'b', 'a'], 'v': [1, 2, 3]})\n"
     "df.groupby('k', as_index=False)['v'].sum()",
     lambda r: r == [{"k": "a", "v": 4}, {"k": "b", "v": 2}]),
    ("series_is_an_object", "import pandas as pd\npd.Series([1, 2], index=['x', 'y'])",
     lambda r: r == {"x": 1, "y": 2}),
    ("describe", "import pandas as pd\npd.DataFrame({'v': [1.0, 2.0, 3.0]})['v'].describe()['mean']",
     lambda r: r == 2.0),
    ("read_csv_from_text",
     "import io, pandas as pd\npd.read_csv(io.StringIO('a,b\\n1,2\\n3,4')).to_dict('list')",
     lambda r: r == {"a": [1, 3], "b": [2, 4]}),
    ("merge", "import pandas as pd\nl = pd.DataFrame({'id': [1, 2], 'x': ['p', 'q']})\n"
     "r = pd.DataFrame({'id': [2, 1], 'y': [20, 10]})\nl.merge(r, on='id')",
     lambda r: r == [{"id": 1, "x": "p", "y": 10}, {"id": 2, "x": "q", "y": 20}]),
    ("pivot_table", "import pandas as pd\ndf = pd.DataFrame({'r': ['n', 'n', 's'], 'c': ['a', 'b', 'a'], 'v': [1, 2, 3]})\n"
     "df.pivot_table(index='r', columns='c', values='v', aggfunc='sum', fill_value=0).reset_index()",
     lambda r: r == [{"r": "n", "a": 1, "b": 2}, {"r": "s", "a": 3, "b": 0}]),
    ("missing_values_are_found",
     "import pandas as pd, numpy as np\npd.DataFrame({'v': [1.0, None]})['v'].isna().tolist()",
     lambda r: r == [False, True]),
    ("dates_are_iso_strings",
     "import pandas as pd\npd.DataFrame({'d': pd.to_datetime(['2024-01-02'])})",
     lambda r: r == [{"d": "2024-01-02T00:00:00"}]),
    ("resample_by_month",
     "import pandas as pd\ns = pd.Series(range(60), index=pd.date_range('2024-01-01', periods=60, freq='D'))\n"
     "s.resample('MS').sum().tolist()", lambda r: r == [465, 1305]),
    ("rolling_mean", "import pandas as pd\npd.Series([1, 2, 3, 4]).rolling(2).mean().tolist()[1:]",
     lambda r: r == [1.5, 2.5, 3.5]),
    ("string_methods", "import pandas as pd\npd.Series(['Ab', 'cD']).str.lower().tolist()",
     lambda r: r == ["ab", "cd"]),
    ("value_counts", "import pandas as pd\npd.Series(list('abca')).value_counts().to_dict()",
     lambda r: r == {"a": 2, "b": 1, "c": 1}),
    ("sort_and_head", "import pandas as pd\ndf = pd.DataFrame({'n': [3, 1, 2]})\ndf.sort_values('n').head(2)",
     lambda r: r == [{"n": 1}, {"n": 2}]),
    ("dataframe_in_a_dict", "import pandas as pd\n{'rows': pd.DataFrame({'a': [1]}), 'n': 1}",
     lambda r: r == {"rows": [{"a": 1}], "n": 1}),
    ("to_csv_round_trip", "import pandas as pd\npd.DataFrame({'a': [1, 2]}).to_csv(index=False)",
     lambda r: r == "a\n1\n2\n"),
]

SCIPY: list[tuple[str, str, Check]] = [
    ("minimize_scalar", "from scipy import optimize\nround(optimize.minimize_scalar(lambda x: (x - 2) ** 2).x, 4)",
     lambda r: r == 2.0),
    ("minimize_rosenbrock",
     "from scipy.optimize import minimize, rosen\n[round(v, 3) for v in minimize(rosen, [1.3, 0.7], method='BFGS').x]",
     lambda r: r == [1.0, 1.0]),
    ("root_finding", "from scipy.optimize import brentq\nround(brentq(lambda x: x**3 - 8, 0, 5), 6)",
     lambda r: r == 2.0),
    ("integrate_quad", "from scipy.integrate import quad\nimport math\nround(quad(math.sin, 0, math.pi)[0], 6)",
     lambda r: r == 2.0),
    ("normal_cdf", "from scipy import stats\nround(stats.norm.cdf(1.96), 4)", lambda r: r == 0.975),
    ("t_test", "from scipy import stats\np = stats.ttest_ind([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).pvalue\np < 0.01",
     lambda r: r is True),
    ("linear_regression", "from scipy import stats\nfit = stats.linregress([0, 1, 2, 3], [1, 3, 5, 7])\n[round(fit.slope, 6), round(fit.intercept, 6)]",
     lambda r: r == [2.0, 1.0]),
    ("interpolate", "from scipy.interpolate import interp1d\nfloat(interp1d([0, 10], [0, 100])(2.5))",
     lambda r: r == 25.0),
    ("solve_ode", "from scipy.integrate import solve_ivp\nimport math\n"
     "sol = solve_ivp(lambda t, y: -y, [0, 1], [1.0], rtol=1e-8)\nround(float(sol.y[0, -1]), 4) == round(math.exp(-1), 4)",
     lambda r: r is True),
    ("sparse_matrix", "from scipy import sparse\nm = sparse.identity(1000, format='csr') * 3\nfloat(m.sum())",
     lambda r: r == 3000.0),
    ("signal_filter", "import numpy as np\nfrom scipy import signal\nb, a = signal.butter(2, 0.1)\n"
     "y = signal.filtfilt(b, a, np.ones(50))\nround(float(y[25]), 3)", lambda r: r == 1.0),
    ("special_gamma", "from scipy.special import gamma\nfloat(gamma(5))", lambda r: r == 24.0),
]


def _png(attachment: dict[str, str]) -> bytes:
    assert attachment["type"] == "image" and attachment["media_type"] == "image/png"
    return base64.b64decode(attachment["data"])


@pytest.mark.parametrize(("code", "check"), [pytest.param(c, k, id=n) for n, c, k in NUMPY + PANDAS + SCIPY])
def test_a_program_computes_its_value(science: Sandbox, code: str, check: Check) -> None:
    done = science.execute(code)
    assert done.status == "completed", done.error
    assert done.engine == "science"
    assert check(done.result), done.result


def test_a_dataframe_result_also_reads_as_a_table(science: Sandbox) -> None:
    done = science.execute("import pandas as pd\npd.DataFrame({'city': ['Oslo', 'Rome'], 'temp': [3, 14]})")
    assert done.result == [{"city": "Oslo", "temp": 3}, {"city": "Rome", "temp": 14}]
    assert done.result_text is not None
    lines = done.result_text.splitlines()
    assert lines[0].split() == ["city", "temp"] and lines[2].split() == ["1", "Rome", "14"]


def test_a_scalar_result_has_no_table(science: Sandbox) -> None:
    assert science.execute("import numpy as np\nint(np.int64(3))").result_text is None


def test_printing_a_dataframe_is_ordinary_output(science: Sandbox) -> None:
    done = science.execute("import pandas as pd\nprint(pd.DataFrame({'a': [1, 2]}).sum().to_dict())")
    assert done.logs == ["{'a': 3}"]


def test_plt_show_returns_the_figure_as_a_png(science: Sandbox) -> None:
    done = science.execute("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title('t')\nplt.show()")
    assert done.status == "completed", done.error
    [figure] = done.attachments
    assert _png(figure).startswith(b"\x89PNG\r\n\x1a\n")


def test_savefig_to_a_path_returns_that_file_and_leaves_it_readable(science: Sandbox) -> None:
    code = ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.bar(['a', 'b'], [3, 5])\n"
            "fig.savefig('chart.png', dpi=50)\nopen('chart.png', 'rb').read()[:4]")
    done = science.execute(code)
    assert done.status == "completed", done.error
    [figure] = done.attachments
    assert done.result == {"$bytes": base64.b64encode(_png(figure)[:4]).decode()}


def test_two_figures_come_back_in_order_and_a_buffer_save_is_the_codes_own(science: Sandbox) -> None:
    code = ("import io, matplotlib.pyplot as plt\nfor n in (1, 2):\n    plt.figure()\n    plt.plot(range(n + 1))\n"
            "    plt.savefig(f'f{n}.png')\nbuf = io.BytesIO()\nplt.savefig(buf, format='png')\nlen(buf.getvalue()) > 100")
    done = science.execute(code)
    assert done.result is True and len(done.attachments) == 2


def test_a_figure_never_shown_or_saved_is_not_returned(science: Sandbox) -> None:
    done = science.execute("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n'drawn'")
    assert done.result == "drawn" and done.attachments == []


def test_a_histogram_of_random_data_with_scipy_and_pandas_together(science: Sandbox) -> None:
    code = ("import numpy as np, pandas as pd, matplotlib.pyplot as plt\nfrom scipy import stats\n"
            "x = pd.Series(np.random.default_rng(1).normal(size=500))\nx.plot.hist(bins=20)\nplt.show()\n"
            "round(stats.skew(x), 1) < 1")
    done = science.execute(code)
    assert done.result is True and len(done.attachments) == 1


def test_numpy_values_pass_to_tools_as_plain_json(science: Sandbox) -> None:
    done = science.execute("import numpy as np\ntools.scale(np.array([1.0, 2.0]), np.float64(3))")
    assert done.status == "completed", done.error
    assert done.result == [3.0, 6.0] and done.host_calls == 1


def test_nan_and_infinity_in_a_frame_follow_the_result_rules(science: Sandbox) -> None:
    done = science.execute("import numpy as np, pandas as pd\npd.DataFrame({'v': [np.nan, np.inf]})")
    assert done.result == [{"v": "NaN"}, {"v": "Infinity"}]

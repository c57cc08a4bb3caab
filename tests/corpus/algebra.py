"""Symbolic and exact maths: sympy and mpmath."""

from __future__ import annotations

from corpus import case

CASES = [
    case("sympy_solve_quadratic", """
import sympy as sp
x = sp.symbols("x")
[int(root) for root in sorted(sp.solve(x**2 - 5*x + 6, x))]
""", [2, 3]),
    case("sympy_factor_expand", """
import sympy as sp
x, y = sp.symbols("x y")
[str(sp.factor(x**3 - y**3)), str(sp.expand((x + 1)**3))]
""", ["(x - y)*(x**2 + x*y + y**2)", "x**3 + 3*x**2 + 3*x + 1"]),
    case("sympy_derivative_integral", """
import sympy as sp
x = sp.symbols("x")
[str(sp.diff(sp.sin(x) * x**2, x)), str(sp.integrate(x * sp.exp(x), x)), str(sp.integrate(1 / (1 + x**2), (x, 0, 1)))]
""", ["x**2*cos(x) + 2*x*sin(x)", "(x - 1)*exp(x)", "pi/4"]),
    case("sympy_linear_system", """
import sympy as sp
x, y, z = sp.symbols("x y z")
solution = sp.solve([x + y + z - 6, 2*x - y - 3, y - z + 1], [x, y, z])
{str(k): int(v) for k, v in solution.items()}
""", {"x": 2, "y": 1, "z": 2}),
    case("sympy_matrix", """
import sympy as sp
m = sp.Matrix([[2, 1], [1, 3]])
[int(m.det()), [[str(v) for v in row] for row in m.inv().tolist()], sorted(int(k) for k in m.charpoly().all_coeffs())]
""", [5, [["3/5", "-1/5"], ["-1/5", "2/5"]], [-5, 1, 5]]),
    case("sympy_limits_series", """
import sympy as sp
x = sp.symbols("x")
[str(sp.limit(sp.sin(x) / x, x, 0)), str(sp.series(sp.exp(x), x, 0, 4).removeO())]
""", ["1", "x**3/6 + x**2/2 + x + 1"]),
    case("sympy_simplify_trig", """
import sympy as sp
x = sp.symbols("x")
[str(sp.simplify(sp.sin(x)**2 + sp.cos(x)**2)), str(sp.trigsimp(2*sp.sin(x)*sp.cos(x)))]
""", ["1", "sin(2*x)"]),
    case("sympy_rational_exact", """
import sympy as sp
[str(sp.Rational(1, 3) + sp.Rational(1, 6)), str(sp.nsimplify(0.125)), str(sp.sqrt(8))]
""", ["1/2", "1/8", "2*sqrt(2)"]),
    case("sympy_parse_and_evaluate", """
from sympy.parsing.sympy_parser import parse_expr
import sympy as sp
expr = parse_expr("3*a**2 + 2*b")
[str(expr.subs({"a": 2, "b": 5})), sorted(str(s) for s in expr.free_symbols)]
""", ["22", ["a", "b"]]),
    case("sympy_ode", """
import sympy as sp
t = sp.symbols("t")
f = sp.Function("f")
str(sp.dsolve(sp.Eq(f(t).diff(t), f(t)), f(t)))
""", "Eq(f(t), C1*exp(t))"),
    case("sympy_primes_number_theory", """
import sympy as sp
[sp.isprime(2**61 - 1), {int(k): int(v) for k, v in sp.factorint(360).items()}, int(sp.prime(100)), int(sp.totient(36))]
""", [True, {"2": 3, "3": 2, "5": 1}, 541, 12]),
    case("sympy_units", """
from sympy.physics.units import convert_to, kilometer, meter, hour, second
import sympy as sp
speed = 36 * kilometer / hour
str(convert_to(speed, meter / second))
""", "10*meter/second"),
    case("sympy_stats_normal", """
from sympy.stats import Normal, P, E
import sympy as sp
X = Normal("X", 0, 1)
[str(E(2 * X + 3)), round(float(P(X > 1.96)), 4)]
""", ["3", 0.025]),
    case("mpmath_precision", """
import mpmath
mpmath.mp.dps = 30
[str(mpmath.pi), str(mpmath.sqrt(2))[:20], str(mpmath.e ** mpmath.pi - mpmath.pi)[:12]]
""", ["3.14159265358979323846264338328", "1.414213562373095048", "19.999099979"]),
    case("cmath_and_complex", """
import cmath
z = complex(3, 4)
[abs(z), round(cmath.phase(z), 6), str(cmath.sqrt(-1))]
""", [5.0, 0.927295, "1j"]),
]

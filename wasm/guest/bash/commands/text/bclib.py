"""The ``bc -l`` math library, written in bc: sine, cosine, arctangent, log, exp, Bessel.

These are the classic series used by POSIX bc implementations (argument reduction, then a
Taylor/Maclaurin sum until the next term truncates to zero, computed with guard digits and
truncated back to the caller's scale), so results agree with GNU bc digit for digit in the
common cases. Written for this project; the structure follows the published algorithms.
"""

LIBRARY = r"""
scale = 20
define e(x) {
  auto a, d, e, f, i, m, n, v, z
  if (x < 0) {
    m = 1
    x = -x
  }
  z = scale
  n = 6 + z + .44 * x
  scale = scale(x) + 1
  while (x > 1) {
    f += 1
    x /= 2
    scale += 1
  }
  scale = n
  v = 1 + x
  a = x
  d = 1
  for (i = 2; 1; i++) {
    e = (a *= x) / (d *= i)
    if (e == 0) {
      if (f > 0) while (f--) v = v * v
      scale = z
      if (m) return (1 / v)
      return (v / 1)
    }
    v += e
  }
}
define l(x) {
  auto e, f, i, m, n, v, z
  if (x <= 0) return ((1 - 10 ^ scale) / 1)
  z = scale
  scale = 6 + scale
  f = 2
  i = 0
  while (x >= 2) {
    f *= 2
    x = sqrt(x)
  }
  while (x <= .5) {
    f *= 2
    x = sqrt(x)
  }
  v = n = (x - 1) / (x + 1)
  m = n * n
  for (i = 3; 1; i += 2) {
    e = (n *= m) / i
    if (e == 0) {
      v = f * v
      scale = z
      return (v / 1)
    }
    v += e
  }
}
define s(x) {
  auto e, i, m, n, s, v, z
  z = scale
  scale = 1.1 * z + 2
  v = a(1)
  if (x < 0) {
    m = 1
    x = -x
  }
  scale = 0
  n = (x / v + 2) / 4
  x = x - 4 * n * v
  if (n % 2) x = -x
  scale = z + 2
  v = e = x
  s = -x * x
  for (i = 3; 1; i += 2) {
    e *= s / (i * (i - 1))
    if (e == 0) {
      scale = z
      if (m) return (-v / 1)
      return (v / 1)
    }
    v += e
  }
}
define c(x) {
  auto v, z
  z = scale
  scale = scale * 1.2
  v = s(x + a(1) * 2)
  scale = z
  return (v / 1)
}
define a(x) {
  auto a, e, f, i, m, n, s, v, z
  m = 1
  if (x < 0) {
    m = -1
    x = -x
  }
  if (x == 1) {
    if (scale <= 25) return (.7853981633974483096156608458 / m)
  }
  if (x == .2) {
    if (scale <= 25) return (.1973955598498807583700497651 / m)
  }
  z = scale
  if (x > .2) {
    scale = z + 5
    a = a(.2)
  }
  scale = z + 3
  while (x > .2) {
    f += 1
    x = (x - .2) / (1 + x * .2)
  }
  v = n = x
  s = -x * x
  for (i = 3; 1; i += 2) {
    e = (n *= s) / i
    if (e == 0) {
      scale = z
      return ((f * a + v) / m)
    }
    v += e
  }
}
define j(n, x) {
  auto a, b, d, e, f, i, m, s, v, z
  z = scale
  scale = 0
  n = n / 1
  if (n < 0) {
    n = -n
    if (n % 2 == 1) m = 1
  }
  b = 1
  for (i = 2; i <= n; i++) b *= i
  scale = 1.5 * z
  b = x ^ n / 2 ^ n / b
  s = -x * x / 4
  v = e = b
  for (i = 1; 1; i++) {
    e = e * s / i / (n + i)
    if (e == 0) {
      scale = z
      if (m) return (-v / 1)
      return (v / 1)
    }
    v += e
  }
}
"""

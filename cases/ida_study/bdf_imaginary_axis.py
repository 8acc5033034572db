# STUDY TOOL (issue 12 item 2; reverted in the next commit): |root|-1 of constant-step BDF1-5 on y' = i w y.
# Max |root| of the constant-step BDF-q characteristic polynomial at z = h*lambda.
# BDF-q: sum_{j=1}^q (1/j) nabla^j y_{n+1} = h f_{n+1}; for y' = lambda y, y_n = zeta^n:
#   sum_{j=1}^q (1/j) (1 - 1/zeta)^j = z.   Multiply by zeta^q -> polynomial in zeta.
import cmath, math
from math import comb
def poly(q, z):
    # coefficients (highest first) of zeta^q * (sum_j (1/j)(1-1/zeta)^j - z)
    c = [0j]*(q+1)   # c[k] = coeff of zeta^k
    for j in range(1, q+1):
        # (1 - w)^j with w = 1/zeta: sum_k C(j,k)(-1)^k zeta^{-k}; times zeta^q
        for k in range(0, j+1):
            c[q-k] += (1.0/j)*comb(j,k)*(-1)**k
    c[q] -= z
    return c
def roots(c):
    n = len(c)-1
    a = [x/c[n] for x in c]
    r = [(0.4+0.9j)**k for k in range(n)]
    for it in range(2000):
        new = []
        for i in range(n):
            num = sum(a[k]*r[i]**k for k in range(n+1))
            den = 1
            for j in range(n):
                if j != i: den *= (r[i]-r[j])
            new.append(r[i] - num/den)
        r = new
    return r
def amp(q, z):
    return max(abs(x) for x in roots(poly(q, z)))
if __name__ == "__main__":
    import sys
    print("theta  " + "  ".join("BDF%d" % q for q in range(1, 6)))
    for th in [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0]:
        print("%5.2f " % th + " ".join("%+.2e" % (amp(q, 1j*th) - 1) for q in range(1, 6)))

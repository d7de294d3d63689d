"""Builds the compiled parts of the DIRT solvers: the roll-outs of the sweep (designer/systems/dirt/dice/_kernels.pyx,
and _relaid.pyx, C++, when a failed Big Attack's dice are laid again; both share _rollout_core.pxd),
the plan search (designer/systems/dirt/dice/_search*.pyx, C++), the laying again of a failed Big Attack's dice
(designer/systems/dirt/dice/_relay.pyx, C++), the replay of a decision (designer/systems/dirt/dice/_turns.pyx, C++)
the reach of a turn (designer/systems/dirt/driving/_reach.pyx, C++) and the carry of the stage time's distribution
when following a policy (designer/racing/_policy.pyx, C++).

Everything else is in pyproject.toml. Every extension is optional: where one cannot be built (no C or C++
compiler), the package installs without it and the same arithmetic runs in Python and numpy, slower.
"""
from Cython.Build import cythonize
from setuptools import Extension, setup

kernels = Extension(
    "designer.systems.dirt.dice._kernels",
    ["designer/systems/dirt/dice/_kernels.pyx"],
    # no fused multiply-add: every product and sum rounded as numpy rounds it, so both give the same numbers
    extra_compile_args=["-O2", "-ffp-contract=off"],
    optional=True,
)

# the plan search (_search imports _search_plans: the work on the candidates it finds), the laying of a failed
# Big Attack's dice again (_relay) and the branch and bound of the sweep under that reading (_relaid)
search = [Extension(f"designer.systems.dirt.dice.{name}", [f"designer/systems/dirt/dice/{name}.pyx"], language="c++",
                    # the risk is rounded to 13 decimals as numpy rounds it (times 1e13, rint, divided back)
                    extra_compile_args=["-O2", "-ffp-contract=off"], optional=True)
          for name in ("_search", "_search_plans", "_relay", "_relaid")]

# the replay of a decision when following the policy (_turns: one plan rolled one by one, a Big Attack's failures laid)
turns = Extension("designer.systems.dirt.dice._turns", ["designer/systems/dirt/dice/_turns.pyx"], language="c++",
                  extra_compile_args=["-O2", "-ffp-contract=off"], optional=True)

# the reach of a turn without a risk budget (the turn ends of the line search: designer/systems/dirt/driving/_reach.pyx)
reach = Extension("designer.systems.dirt.driving._reach", ["designer/systems/dirt/driving/_reach.pyx"], language="c++",
                  extra_compile_args=["-O2"], optional=True)

# the carry of the stage time's distribution when following the policy (designer/racing/_policy.pyx)
policy = Extension("designer.racing._policy", ["designer/racing/_policy.pyx"], language="c++",
                   extra_compile_args=["-O2", "-ffp-contract=off"], optional=True)

extensions = cythonize([kernels, *search, turns, reach, policy], language_level=3, quiet=True)
for ext in extensions:      # cythonize makes new Extension objects and does not carry ``optional`` over
    ext.optional = True

setup(ext_modules=extensions)

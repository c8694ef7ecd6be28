"""Address-space facts the CL1xx rules share: pointer conversions (6.7.4), certainty, findings."""

from .check import analyse
from ..findings import Edit, Finding, FixPlan

__all__ = ["Edit", "Finding", "FixPlan", "analyse"]

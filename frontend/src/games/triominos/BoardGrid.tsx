// The faint lattice under the tiles, fading out away from the layout.
import { H, type Box } from "./geometry";

/** One repeat of the lattice: two rows, one side wide (vertex (0, 1) at x = ½). */
const CELL = `M0.5 0L0 ${H}M0.5 0L1 ${H}M0 ${H}L0.5 ${2 * H}M1 ${H}L0.5 ${2 * H}M0 0H1M0 ${H}H1`;

export function BoardGrid({ box, centre }: { box: Box; centre: Box }) {
  const cx = (centre.minX + centre.maxX) / 2;
  const cy = (centre.minY + centre.maxY) / 2;
  const radius = Math.max(centre.maxX - centre.minX, centre.maxY - centre.minY) / 2 + 4;
  return (
    <>
      <defs>
        <pattern id="tr-lattice" patternUnits="userSpaceOnUse" x={0} y={0} width={1} height={2 * H}>
          <path d={CELL} className="tr-lattice-line" strokeWidth={0.012} fill="none" />
        </pattern>
        <radialGradient id="tr-lattice-fade" gradientUnits="userSpaceOnUse" cx={cx} cy={cy} r={radius}>
          <stop offset="0.6" stopColor="#fff" />
          <stop offset="1" stopColor="#000" />
        </radialGradient>
        <mask id="tr-lattice-mask" maskUnits="userSpaceOnUse" x={box.minX} y={box.minY} width={box.maxX - box.minX} height={box.maxY - box.minY}>
          <rect x={box.minX} y={box.minY} width={box.maxX - box.minX} height={box.maxY - box.minY} fill="url(#tr-lattice-fade)" />
        </mask>
      </defs>
      <rect
        x={box.minX}
        y={box.minY}
        width={box.maxX - box.minX}
        height={box.maxY - box.minY}
        fill="url(#tr-lattice)"
        mask="url(#tr-lattice-mask)"
        pointerEvents="none"
      />
    </>
  );
}

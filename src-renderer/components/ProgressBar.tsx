import { progressPercent } from '../store/slices/progressSlice.js';
import { useTranslation } from 'react-i18next';
import './ToolLayerControls.css';

/**
 * A thin determinate bar with the tool's message and the percentage beside it. The whole
 * element is the `progressbar` (aria-valuenow 0-100); tests find it by `testId`.
 */
export function ProgressBar({
  fraction,
  message,
  testId,
  className,
}: {
  fraction: number;
  message: string;
  testId: string;
  className: string;
}) {
  const { t } = useTranslation('status');
  const percent = progressPercent(fraction);
  const text = message.trim() || t('working');
  return (
    <div
      className={`progress-bar ${className}`}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${text} ${percent}%`}
      data-testid={testId}
      title={`${text} ${percent}%`}
    >
      <span className="progress-bar__message">{text}</span>
      <span className="progress-bar__track">
        <span className="progress-bar__fill" style={{ width: `${percent}%` }} />
      </span>
      <span className="progress-bar__percent">{percent}%</span>
    </div>
  );
}

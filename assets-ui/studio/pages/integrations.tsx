/** Integrations: webhooks with deliveries, and API keys. */
import { useStudio } from '../ctx';
import { PageHead } from '../ui';
import { Webhooks } from './webhooks';
import { ApiKeys } from './keys';

/** The integrations page. */
export function Integrations() {
  const { t, can } = useStudio();
  return (
    <>
      <PageHead title={t('nav_integrations')} />
      <div class="grid2">
        {can('webhooks:manage') ? <Webhooks /> : <p class="muted">{t('no_permission')}</p>}
        {can('keys:manage') && <ApiKeys />}
      </div>
    </>
  );
}

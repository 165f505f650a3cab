/** Integrations: webhooks with deliveries, inbound hooks, API keys and the events inbox. */
import { useStudio } from '../ctx';
import { PageHead } from '../ui';
import { Webhooks } from './webhooks';
import { ApiKeys } from './keys';
import { InboundHooks } from './hooks';
import { Inbox } from './inbox';

/** The integrations page. */
export function Integrations() {
  const { t, can } = useStudio();
  return (
    <>
      <PageHead title={t('nav_integrations')} />
      <div class="grid2">
        {can('webhooks:manage') ? <Webhooks /> : <p class="muted">{t('no_permission')}</p>}
        {can('webhooks:manage') && <InboundHooks />}
        {can('keys:manage') && <ApiKeys />}
        {can('events:read') && <Inbox />}
      </div>
    </>
  );
}
